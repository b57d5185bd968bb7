/**
 * @module apps/log-drains/shipper
 * Sends each active drain the lines stored after its cursor. Storing lines only wakes it (`wake`:
 * a flag and at most one timer), so ingestion never waits on a drain: the batch goes out
 * DRAIN_LIMITS.flushMs after the first new line (lines meanwhile join it), and every replica also
 * looks every pollMs for lines another replica stored and for retries that came due. A drain is
 * claimed under a lease, so replicas never send one drain's batch twice at once.
 *
 * Each `tick` sends at most one batch per drain; a drain with more waiting is due again at once and
 * the tick goes on until no drain is due or a failure holds it back.
 */
import type { Clock } from '../../core/clock/clock.ts';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { Db } from '../../core/db/db.ts';
import type { Logger } from '../../core/log/logger.ts';
import { lineView } from '../logs/service.ts';
import { linesAfter } from '../logs/store.ts';
import { packBatch, type DrainLine, type PackedBatch } from './batch.ts';
import { backoffMs, type DrainSettings } from './limits.ts';
import type { DrainMetrics } from './metrics.ts';
import type { DrainNotifier } from './notify.ts';
import { acknowledged, drainSecrets, failureText, signedHeaders, type DrainPost } from './send.ts';
import * as store from './store.ts';

export interface DrainShipper {
  /** Lines were stored: send them within flushMs (cheap, never waits). */
  wake(): void;
  /** Sends what is due now; the batches sent. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export interface ShipperDeps {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  logger: Logger;
  post: DrainPost;
  notifier: DrainNotifier;
  metrics: DrainMetrics;
  settings: DrainSettings;
}

/** Reads the lines of an app after a cursor, as drains receive them; one read per cursor a round. */
type LineReader = (appId: string, after: number) => Promise<DrainLine[]>;

function roundReader(db: Db, settings: DrainSettings): LineReader {
  // The drains of one app usually stand at the same cursor: they share the read (and its parsing).
  const reads = new Map<string, Promise<DrainLine[]>>();
  return (appId, after) => {
    const key = `${appId}\n${after}`;
    let read = reads.get(key);
    if (read === undefined) {
      read = linesAfter(db, appId, {}, after, settings.batchLines, 'all').then((rows) => rows.map((r) => {
        const { profile: _profile, ...line } = lineView(r);
        return line;
      }));
      reads.set(key, read);
    }
    return read;
  };
}

/** The drain's next batch: the lines after its cursor (or the range it retries). */
export async function nextBatch(read: LineReader, drain: store.DrainRow, settings: DrainSettings): Promise<PackedBatch | null> {
  const through = drain.retry_through === null ? Infinity : Number(drain.retry_through);
  const lines = (await read(drain.app_id, Number(drain.after_seq))).filter((l) => Number(l.id) <= through);
  return packBatch(drain.id, drain.app_id, lines, { maxLines: settings.batchLines, maxBytes: settings.batchBytes });
}

export function createDrainShipper(deps: ShipperDeps): DrainShipper {
  const { db, clock, settings } = deps;
  let timer: NodeJS.Timeout | null = null;
  let poller: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let started = false;

  async function sendOne(drain: store.DrainRow, read: LineReader): Promise<boolean> {
    const batch = await nextBatch(read, drain, settings);
    if (batch === null) {
      // The range it waited for was pruned: nothing to send, move on.
      await store.release(db, drain.id, drain.retry_through === null ? null : Number(drain.retry_through));
      return false;
    }
    const now = clock.now();
    const headers = await signedHeaders({ id: `${drain.id}-${batch.firstSeq}-${batch.lastSeq}`, body: batch.body, secrets: drainSecrets(deps.secrets, drain, now), now });
    const outcome = await deps.post({ url: drain.url, body: batch.body, headers, timeoutMs: settings.timeoutMs, maxResponseBytes: settings.responseBytes });
    const at = new Date(clock.now());
    if (acknowledged(outcome)) {
      await store.recordDelivered(db, drain.id, batch.lastSeq, at, outcome.status);
      deps.metrics.delivered(batch.texts.length);
      return true;
    }
    const failingSince = drain.failing_since ?? at;
    const disabledReason = at.getTime() - failingSince.getTime() >= settings.disableAfterMs
      ? `it failed without a success since ${failingSince.toISOString()} (last: ${failureText(outcome)})` : null;
    const error = failureText(outcome);
    const disabled = await db.transaction(async (tx) => {
      const done = await store.recordFailed(tx, drain.id, {
        through: batch.lastSeq, at, nextAt: new Date(at.getTime() + backoffMs(drain.failures + 1, settings.maxBackoffMs)),
        status: outcome.status ?? null, error, disabledReason,
      });
      if (done) await deps.notifier.write(tx, drain, disabledReason!);
      return done;
    });
    deps.metrics.failed();
    if (disabled) {
      deps.metrics.disabled();
      await deps.notifier.told(drain, disabledReason!, at);
    }
    return false;
  }

  async function run(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const due = await store.claimDue(db, new Date(now), new Date(now + settings.leaseMs), settings.concurrency);
      if (due.length === 0) return sent;
      const read = roundReader(db, settings);
      const results = await Promise.all(due.map((d) => sendOne(d, read).catch((err: unknown) => {
        deps.logger.error({ err, drainId: d.id }, 'log drain batch failed');
        return false;
      })));
      const delivered = results.filter(Boolean).length;
      sent += delivered;
      // Only drains that delivered can have more due now; failures wait for their backoff.
      if (delivered === 0) return sent;
    }
  }

  function tick(): Promise<number> {
    if (running !== null) {
      again = true;
      return running;
    }
    running = run().finally(() => {
      running = null;
      if (again && started) {
        again = false;
        schedule();
      }
    });
    return running;
  }

  function schedule(): void {
    if (timer !== null || !started) return;
    timer = setTimeout(() => {
      timer = null;
      void tick().catch((err: unknown) => deps.logger.error({ err }, 'log drain tick failed'));
    }, settings.flushMs);
    timer.unref();
  }

  return {
    wake: schedule,
    tick,
    start() {
      if (started) return;
      started = true;
      poller = setInterval(() => void tick().catch((err: unknown) => deps.logger.error({ err }, 'log drain tick failed')), settings.pollMs);
      poller.unref();
    },
    async stop() {
      started = false;
      if (timer !== null) clearTimeout(timer);
      if (poller !== null) clearInterval(poller);
      timer = null;
      poller = null;
      await running?.catch(() => undefined);
    },
  };
}
