/**
 * `npm start` as a process: boots the control plane and one runtime node on free ports with a fresh
 * DATA_DIR, answers /healthz and /readyz alike on both, creates a workspace, writes
 * credentials.json, sets up the example app, prints a console sign-in link that works, serves a
 * hosted app's MCP server on `{slug}.apps.localhost` out of the box (the README's first app,
 * deployed with the CLI), and stops both cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempProject } from '../cli/helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN_ALL = join(ROOT, 'control-plane/src/main-all.ts');
const REAL_RUNTIME = join(ROOT, 'runtime/src/main.ts');

// Until the runtime node exists, a stand-in outside the repo plays its part: it reads RUNTIME_PORT,
// answers /healthz and exits on SIGTERM, which is all main-all relies on.
const STAND_IN = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  res.writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(req.url === '/healthz' ? '{"status":"ok"}' : '{}');
});
server.listen(Number(process.env.RUNTIME_PORT), '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resolves when `text` has appeared on the stream; rejects if the process exits first. */
function waitForOutput(child: ChildProcess, text: string, seen: { out: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen.out += chunk.toString('utf8');
      if (seen.out.includes(text)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (seen.out += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`main-all exited (${code}) before "${text}":\n${seen.out}`)));
  });
}

/** A JSON-RPC call to `http://{host}/mcp`, sent to the node on loopback (fetch cannot set Host). */
function mcpCall(port: number, host: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

let dir: string | undefined;
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('main-all (npm start)', () => {
  it('boots both processes, serves the API, and stops cleanly on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'main-all-'));
    let entry = REAL_RUNTIME;
    if (!existsSync(REAL_RUNTIME)) {
      entry = join(dir, 'runtime-stand-in.mjs');
      await writeFile(entry, STAND_IN);
    }
    const [port, runtimePort] = [await freePort(), await freePort()];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      // The embedded default is what `npm start` promises; shared services are not part of this test.
      if (v !== undefined && !['DATABASE_URL', 'REDIS_URL', 'OPERATOR_TOKEN', 'MASTER_KEY', 'RUNTIME_SECRET', 'PUBLIC_URL', 'RUNTIME_URL'].includes(k)) env[k] = v;
    }
    Object.assign(env, {
      PORT: String(port), RUNTIME_PORT: String(runtimePort), DATA_DIR: join(dir, 'data'), RUNTIME_ENTRY: entry,
      LOG_LEVEL: 'warn', NODE_ENV: 'development', METRICS_PORT: '0',
    });
    child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', MAIN_ALL], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const seen = { out: '' };
    await waitForOutput(child, 'Platform ready', seen);

    const cp = `http://127.0.0.1:${port}`;
    const rt = `http://127.0.0.1:${runtimePort}`;
    expect((await fetch(`${cp}/healthz`)).status).toBe(200);
    expect((await fetch(`${cp}/readyz`)).status).toBe(200);
    expect((await fetch(`${rt}/healthz`)).status).toBe(200);
    // The same probes, the same bodies, on both processes.
    for (const base of [cp, rt]) {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
    }

    const created = await fetch(`${cp}/client/v1/workspaces`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'From the test', owner: { name: 'Tess' } }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ workspace: { name: 'From the test' }, owner: { role: 'owner' } });

    const credentials = JSON.parse(await readFile(join(dir, 'data', 'credentials.json'), 'utf8'));
    expect(seen.out).toContain(credentials.owner.apiKey);
    const me = await fetch(`${cp}/client/v1/me`, { headers: { authorization: `Bearer ${credentials.owner.apiKey}` } });
    expect(((await me.json()) as { workspace: unknown }).workspace).toEqual(credentials.workspace);
    const circles = await fetch(`${cp}/client/v1/circles`, { headers: { authorization: `Bearer ${credentials.owner.apiKey}` } });
    expect(((await circles.json()) as { items: Array<{ visibility: string }> }).items.map((c: { visibility: string }) => c.visibility).sort()).toEqual(['private', 'public']);

    // The example app was built, uploaded and installed, and posted its cards into the welcome conversation.
    if (entry === REAL_RUNTIME) {
      const messages = await fetch(`${cp}/client/v1/conversations/${credentials.conversationId}/messages`, { headers: { authorization: `Bearer ${credentials.owner.apiKey}` } });
      const cards = ((await messages.json()) as { items: Array<{ author: { name: string }; blockId: string | null }> }).items.filter((m) => m.blockId !== null);
      expect(cards.map((m) => m.author.name)).toEqual(['Deploy desk', 'Deploy desk']);
    }
    // The console line: a one-time sign-in link to the welcome conversation, its key in the fragment.
    const link = new URL(/console\s+(\S+)/.exec(seen.out)![1]!);
    expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:${port}/console/sign-in`);
    const fragment = new URLSearchParams(link.hash.slice(1));
    expect(fragment.get('next')).toBe(`/console/conversations/${credentials.conversationId}`);
    const signedIn = await fetch(`${cp}/console/sign-in`, {
      method: 'POST', redirect: 'manual', headers: { origin: `http://localhost:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: fragment.get('key')!, once: '1', next: fragment.get('next')! }).toString(),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(fragment.get('next'));
    // The README's first app with its MCP server: deployed with the CLI, served at hello.apps.localhost.
    if (entry === REAL_RUNTIME) {
      expect(seen.out).toContain(`http://{slug}.apps.localhost:${runtimePort}/`);
      const project = await tempProject('hello-mcp');
      try {
        const deployed = await runCli(['deploy', '--production', '--create'], { cwd: project.dir, env: { PLATFORM_URL: cp, PLATFORM_API_KEY: credentials.owner.apiKey } });
        expect(deployed.code, deployed.stderr).toBe(0);
        const call = await mcpCall(runtimePort, `hello.apps.localhost:${runtimePort}`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { name: 'ada' } } });
        expect(call).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Hello, ada!' }] } } });
        // The address the banner gives MCP clients: a path of the runtime origin, which Node's fetch
        // (like Python's clients) resolves, where `hello.apps.localhost` would not.
        expect(seen.out).toContain(`http://localhost:${runtimePort}/apps/{slug}/mcp   (any MCP client)`);
        const byPath = await fetch(`${rt}/apps/hello/mcp`, {
          method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'bo' } } }),
        });
        expect({ status: byPath.status, json: await byPath.json() }).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Hello, bo!' }] } } });
      } finally {
        await project.remove();
      }
    }

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child!.once('exit', (code, signal) => resolve({ code, signal })));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${rt}/healthz`)).rejects.toThrow();
    await expect(fetch(`${cp}/healthz`)).rejects.toThrow();
  }, 150_000); // a bound, not a measurement: the full suite loads both cores, and start-up bundles, uploads and installs the example app
});
