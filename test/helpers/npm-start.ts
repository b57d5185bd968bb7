/**
 * `startPlatform()`: `npm start` (control-plane/src/main-all.ts) as a child process on free ports
 * with a fresh DATA_DIR and the embedded database, the way a fresh clone runs it. Resolves once it
 * printed "Platform ready", with what it printed: the console sign-in link and the credentials.
 *
 *   const platform = await startPlatform();
 *   await page.goto(platform.consoleLink);
 *   await platform.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN_ALL = join(ROOT, 'control-plane/src/main-all.ts');

export interface Platform {
  url: string;
  /** The runtime node npm start runs (hosted apps' routes are at `/apps/{slug}/…`). */
  runtimeUrl: string;
  /** The one-time console sign-in link printed on the `console` line. */
  consoleLink: string;
  /** The `npm start` process (the control plane; the runtime node is its child). */
  pid: number;
  credentials: { owner: { apiKey: string; id: string }; member: { apiKey: string; id: string }; conversationId: string; circles: { public: string; private: string } };
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once `text` was printed (or had been already); rejects if the process exits first. */
function waitFor(child: ChildProcess, text: string, seen: { out: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    if (seen.out.includes(text)) return resolve();
    const onData = () => {
      if (!seen.out.includes(text)) return;
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before "${text}":\n${seen.out}`)));
  });
}

/** A bound on start-up, kept below the suites' hook timeouts, so a stuck start is stopped rather than orphaned. */
const START_BOUND_MS = 100_000;

/** `env`: extra environment (such as DNS_SERVERS for a test's own DNS server), over the fresh clone's. */
export async function startPlatform(options: { env?: Record<string, string> } = {}): Promise<Platform> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-start-'));
  const [port, runtimePort] = [await freePort(), await freePort()];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // What a fresh clone has: no shared services, no configured secrets.
    if (v !== undefined && !['DATABASE_URL', 'REDIS_URL', 'OPERATOR_TOKEN', 'MASTER_KEY', 'RUNTIME_SECRET', 'PUBLIC_URL', 'RUNTIME_URL'].includes(k)) env[k] = v;
  }
  // METRICS_PORT 0: a free operator port, so two suites (or two worktrees) can start side by side.
  Object.assign(env, { PORT: String(port), RUNTIME_PORT: String(runtimePort), METRICS_PORT: '0', DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn', NODE_ENV: 'development' }, options.env);
  const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', MAIN_ALL], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const seen = { out: '' };
  child.stdout!.on('data', (chunk: Buffer) => (seen.out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (seen.out += chunk.toString('utf8')));
  let bound: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      waitFor(child, 'written to', seen),
      new Promise((_, reject) => (bound = setTimeout(() => reject(new Error(`npm start did not get ready within ${START_BOUND_MS} ms:\n${seen.out}`)), START_BOUND_MS))),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  } finally {
    clearTimeout(bound);
  }
  const consoleLink = /console\s+(\S+)/.exec(seen.out)?.[1] ?? '';
  const credentials = JSON.parse(await readFile(join(dir, 'data', 'credentials.json'), 'utf8')) as Platform['credentials'];
  return {
    url: `http://localhost:${port}`,
    runtimeUrl: `http://127.0.0.1:${runtimePort}`,
    consoleLink,
    pid: child.pid!,
    credentials,
    output: () => seen.out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
