/**
 * @module main
 * The control plane alone: `node --no-node-snapshot --conditions=source control-plane/src/main.ts`.
 * Replicas run this; the runtime nodes run separately.
 */
import { boot, configOrExit, onShutdownSignal } from './boot.ts';

const booted = await boot(configOrExit());
const { url, metricsUrl } = await booted.controlPlane.start();
booted.logger.info({ url, metricsUrl, publicUrl: booted.config.publicUrl, database: booted.config.embedded ? 'pglite' : 'postgres' }, 'control plane ready');

onShutdownSignal(async (signal) => {
  booted.logger.info({ signal }, 'shutting down');
  try {
    await booted.close();
    process.exit(0);
  } catch (err) {
    booted.logger.error({ err }, 'shutdown failed');
    process.exit(1);
  }
});
