/**
 * @module deliveries/outbox/waker
 * What makes an idle delivery loop look for due deliveries: a notification that new ones
 * committed, or the poll interval running out (the fallback that also finds retries coming due).
 *
 * - With real Postgres, a dedicated connection LISTENs on the schema's channel; the 008 trigger
 *   (and `notifyWorkers`) notify it when their transaction commits, in whichever process it ran.
 *   A lost connection is reopened after a pause; polling covers the gap.
 * - `wake()` nudges the loops of this process (services call it after committing events). The
 *   embedded database has no second connection to listen on, so there `wake()` and polling are
 *   the signals.
 *
 * A wake that arrives while every loop is busy is kept, so the next wait returns at once.
 */
import pg from 'pg';
import type { Logger } from '../../core/log/logger.ts';

export interface Waker {
  /** Resolves on the next wake, or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<void>;
  wake(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const RECONNECT_MS = 2_000;

export function createWaker(deps: { databaseUrl: string | null; channel: () => Promise<string>; logger: Logger }): Waker {
  const waiting = new Set<() => void>();
  let pending = false;
  let client: pg.Client | null = null;
  let stopped = true;
  let reconnect: ReturnType<typeof setTimeout> | undefined;

  const wake = () => {
    if (waiting.size === 0) {
      pending = true;
      return;
    }
    for (const resolve of [...waiting]) resolve();
  };

  async function listen(): Promise<void> {
    if (deps.databaseUrl === null || stopped) return;
    const c = new pg.Client({ connectionString: deps.databaseUrl, connectionTimeoutMillis: 5_000 });
    const retry = (err: unknown) => {
      deps.logger.warn({ err }, 'outbox listener connection lost; polling until it is back');
      if (client === c) client = null;
      c.removeAllListeners('notification');
      void c.end().catch(() => undefined);
      if (!stopped && reconnect === undefined) {
        reconnect = setTimeout(() => {
          reconnect = undefined;
          void listen();
        }, RECONNECT_MS);
        reconnect.unref();
      }
    };
    c.on('error', retry);
    c.on('notification', wake);
    try {
      await c.connect();
      const channel = await deps.channel();
      await c.query(`listen "${channel.replaceAll('"', '""')}"`);
      if (stopped) {
        await c.end();
        return;
      }
      client = c;
      // Rows committed while the listener was away are found now rather than at the next poll.
      wake();
    } catch (err) {
      retry(err);
    }
  }

  return {
    wait(timeoutMs) {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiting.add(done);
      });
    },
    wake,
    async start() {
      stopped = false;
      await listen();
    },
    async stop() {
      stopped = true;
      clearTimeout(reconnect);
      reconnect = undefined;
      const c = client;
      client = null;
      if (c !== null) {
        c.removeAllListeners('error');
        c.on('error', () => undefined);
        await c.end().catch(() => undefined);
      }
      for (const resolve of [...waiting]) resolve();
    },
  };
}
