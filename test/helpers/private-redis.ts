/**
 * A Redis server of a test run's own: the machine's `redis-server` on a free loopback port, nothing
 * written to disk, so suites that need real Redis run where REDIS_URL is not set.
 *
 *   const redis = await startPrivateRedis();
 *   redis.url; // redis://127.0.0.1:PORT
 *   await redis.stop();
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './private-postgres.ts';

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

/** The path of `redis-server` on PATH, or null. */
export function redisServerBin(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : null;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const bin = redisServerBin();
  if (bin === null) throw new Error('No redis-server on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'private-redis-'));
  const port = await freePort();
  // No snapshot, no append-only file: a test run's keys need not survive it. It logs to stdout,
  // and "Ready to accept connections" is its word that the port is open.
  const server = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(server, 'exit');
  let log = '';
  const ready = await new Promise<boolean>((resolve) => {
    server.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) resolve(true);
    });
    server.once('exit', () => resolve(false));
    server.once('error', () => resolve(false));
  });
  if (!ready) {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`redis-server did not start on port ${port}: ${log.slice(-500)}`);
  }
  server.stdout.resume();
  server.stderr.resume();
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
