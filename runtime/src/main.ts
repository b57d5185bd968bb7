/**
 * @module main
 * Composition root of a runtime node process: config from the environment, a pino logger, the node,
 * and a graceful stop on SIGTERM/SIGINT: drain (no new deliveries, in-flight ones finish), leave the
 * fleet, exit. `npm start` of the control plane spawns this file.
 */
import { pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { loadConfig } from './config/config.ts';
import { createRuntimeNode } from './node.ts';
import { createLogStream, createTelemetry } from './telemetry/index.ts';

const config = loadConfig(process.env);
const options = { level: config.logLevel, base: { service: 'runtime' } };
const pretty = config.logFormat === 'pretty' ? PinoPretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true }) : null;
// With OTLP export on, the node's own lines go to the collector as well as to stdout.
const telemetry = config.telemetry === null ? null : createTelemetry(config.telemetry, { serviceName: 'runtime', ...(config.fleet === null ? {} : { instanceId: config.fleet.nodeId }) });
const logger = telemetry !== null
  ? pino(options, pino.multistream([{ level: 'trace', stream: pretty ?? pino.destination(1) }, { level: 'trace', stream: createLogStream(telemetry) }]))
  : pretty !== null ? pino(options, pretty) : pino(options);
const node = createRuntimeNode({ config, logger, telemetry });
const { url, metricsUrl } = await node.start();
logger.info({ url, metricsUrl, workers: config.workers }, 'runtime node listening');

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'runtime node draining');
  node.drain(config.drainMs).then(({ inFlight }) => {
    if (inFlight > 0) logger.warn({ inFlight }, 'drain deadline passed with requests in flight');
    return node.stop();
  }).then(() => telemetry?.shutdown()).then(() => process.exit(0), (err: unknown) => {
    logger.error({ err }, 'runtime node did not stop cleanly');
    process.exit(1);
  });
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
