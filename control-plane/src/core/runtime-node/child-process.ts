/**
 * @module core/runtime-node/child-process
 * Runs one runtime node as a child process (what `npm start` does), waits until it answers
 * `/healthz`, and stops it: SIGTERM first, SIGKILL if it lingers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Logger } from '../log/logger.ts';

export interface RuntimeChild {
  pid: number | undefined;
  /** Resolves once `/healthz` answers 200; rejects if the process exits first or the deadline passes. */
  ready: Promise<void>;
  /** Resolves when the process has exited, however that happened. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(graceMs?: number): Promise<void>;
}

export interface RuntimeChildOptions {
  entry: string;
  env: Record<string, string>;
  url: string;
  logger: Logger;
  readyTimeoutMs?: number;
}

const POLL_MS = 100;

export function spawnRuntimeNode(options: RuntimeChildOptions): RuntimeChild {
  if (!existsSync(options.entry)) throw new Error(`The runtime node entry ${options.entry} does not exist`);
  // Same Node binary and flags as ours: isolated-vm needs --no-node-snapshot, and the sources run
  // as TypeScript through the `source` export condition.
  const child: ChildProcess = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', options.entry], {
    env: options.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => {
      options.logger.error({ err }, 'runtime node failed to start');
      resolve({ code: null, signal: null });
    });
  });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const ready = (async () => {
    const deadline = Date.now() + (options.readyTimeoutMs ?? 15_000);
    while (Date.now() < deadline) {
      if (gone) throw new Error('The runtime node exited before it was ready');
      try {
        const res = await fetch(`${options.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
        await res.body?.cancel();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`The runtime node did not answer ${options.url}/healthz in time`);
  })();

  return {
    pid: child.pid,
    ready,
    exited,
    async stop(graceMs = 5_000) {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
