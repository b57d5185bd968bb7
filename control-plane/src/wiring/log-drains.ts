/**
 * @module wiring/log-drains
 * Wires per-app log drains (apps/log-drains/): the service tooling calls, and the shipper that
 * sends batches. Built after the deliveries area, whose outbound guard (the one app endpoints go
 * through: no private or metadata addresses, loopback only in development) and owner mail it uses.
 */
import type { Registry } from 'prom-client';
import type { Config } from '../core/config/config.ts';
import type { Clock } from '../core/clock/clock.ts';
import type { Secrets } from '../core/crypto/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Logger } from '../core/log/logger.ts';
import type { LogsService } from '../apps/logs/service.ts';
import { DRAIN_LIMITS, type DrainSettings } from '../apps/log-drains/limits.ts';
import { createDrainMetrics } from '../apps/log-drains/metrics.ts';
import { createDrainNotifier } from '../apps/log-drains/notify.ts';
import type { DrainPost } from '../apps/log-drains/send.ts';
import { createLogDrainsService, type LogDrainsService } from '../apps/log-drains/service.ts';
import { createDrainShipper, type DrainShipper } from '../apps/log-drains/shipper.ts';
import { createGuardedAgent, postJson, type ResolveAll } from '../deliveries/outbound/index.ts';
import type { MailService } from '../workspace/mail/service.ts';

export interface LogDrainsArea {
  service: LogDrainsService;
  shipper: DrainShipper;
}

export interface LogDrainsDeps {
  config: Config;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  logger: Logger;
  mail: Pick<MailService, 'write' | 'flush'>;
  logs: Pick<LogsService, 'ingest'>;
  /** This process's metrics (the drains' batches by outcome). */
  registry: Registry;
  /** Resolves drains' host names (default: the system's); the guard judges the addresses. */
  resolve?: ResolveAll;
  /** Replaces some of DRAIN_LIMITS (tests: shorter waits). */
  settings?: Partial<DrainSettings>;
}

/** The guarded POST of deliveries/outbound, as app endpoints get it. */
export function drainPostFor(config: Config, resolve?: ResolveAll): DrainPost {
  const guard = { allowLoopback: config.dev };
  const dispatcher = createGuardedAgent(guard, ...(resolve === undefined ? [] : [resolve]));
  return async (input) => {
    const outcome = await postJson({ ...input, dispatcher, guard });
    return outcome.ok ? { ok: true, status: outcome.status, durationMs: outcome.durationMs } : outcome;
  };
}

export function createLogDrainsArea(deps: LogDrainsDeps): LogDrainsArea {
  const settings: DrainSettings = { ...DRAIN_LIMITS, ...deps.settings };
  const post = drainPostFor(deps.config, deps.resolve);
  const notifier = createDrainNotifier({ logger: deps.logger, mail: deps.mail, logs: deps.logs, publicUrl: deps.config.publicUrl });
  return {
    service: createLogDrainsService({ db: deps.db, clock: deps.clock, secrets: deps.secrets, post, settings, allowLoopback: deps.config.dev }),
    shipper: createDrainShipper({ db: deps.db, clock: deps.clock, secrets: deps.secrets, logger: deps.logger, post, notifier, settings, metrics: createDrainMetrics(deps.registry) }),
  };
}
