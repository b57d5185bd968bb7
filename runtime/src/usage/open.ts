/**
 * @module usage/open
 * The node's usage metering, when it has a control plane to ship to: the meter the supervisor
 * counts into and the shipper that sends its deltas. Off without a control plane (nothing would
 * read the counts) and, for the bench only, with `RUNTIME_METERING=off`.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { RuntimeConfig } from '../config/config.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { createUsageMeter, type UsageMeter } from './meter.ts';
import { createUsageShipper, type UsageShipper } from './shipper.ts';

export interface Metering {
  meter: UsageMeter;
  shipper: UsageShipper;
}

export function openMetering(config: RuntimeConfig, deps: { now: () => number; logger: Logger; metrics: Metrics; fetch: typeof fetch | undefined }): Metering | null {
  if (config.controlPlaneUrl === null || !config.metering) return null;
  const meter = createUsageMeter(deps.now);
  const shipper = createUsageShipper({
    url: config.controlPlaneUrl, secret: config.secret, nodeId: config.fleet?.nodeId ?? `${hostname()}-${process.pid}`, meter, logger: deps.logger,
    ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
    dropped: (rows) => deps.metrics.usageDropped.inc(rows),
  });
  return { meter, shipper };
}
