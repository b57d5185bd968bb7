/**
 * A PostgreSQL server of a test's own: `initdb` in a temporary folder with the machine's PostgreSQL
 * binaries, listening on a free loopback port, so a test may stop, kill or restart it without
 * disturbing the rest of the suite (which uses the machine's server). As root (CI), the server runs
 * as the `postgres` user (PostgreSQL refuses to run as root).
 *
 *   const pg = await startPrivatePostgres();
 *   pg.url; // postgres://postgres@127.0.0.1:PORT/postgres
 *   await pg.restart({ crash: true }); // immediate shutdown, then start again
 *   await pg.stop();
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PrivatePostgres {
  url: string;
  port: number;
  /** Stops the server (`immediate`: as if it crashed, no checkpoint) and starts it again on the same port. */
  restart(options?: { crash?: boolean }): Promise<void>;
  /** Stops the server as if it crashed and leaves it down until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder, or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(root, versions[0]!, 'bin');
}

/** A port nothing listens on now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (bin === null) throw new Error('No PostgreSQL binaries under /usr/lib/postgresql');
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'private-pg-'));
  const data = join(dir, 'data');
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (cmd: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args));
  const port = await freePort();
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // Sockets in the folder itself (not /var/run/postgresql); fsync off: a test's data need not survive the machine.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () => as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  const stopWith = (mode: 'fast' | 'immediate') => as('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart(options = {}) {
      await stopWith(options.crash === true ? 'immediate' : 'fast');
      await start();
    },
    async down() {
      await stopWith('immediate');
    },
    async up() {
      await start();
    },
    async stop() {
      await stopWith('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
