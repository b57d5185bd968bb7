/**
 * Issue 14 item 1, end to end over real HTTP: a control plane and a runtime node on loopback wired
 * both ways (the node ships its app log lines to the control plane), a hosted app built with the
 * SDK and uploaded through the tooling endpoint, and the `platform` CLI run as a user runs it, in
 * its own process. `platform logs --follow` prints the stack of a route that throws as it happens;
 * `platform logs --status error --json` reads the stored lines; the thrown route counts as `error`
 * in the node's metrics; a secret env value the app logs never reaches the output.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { spawnCli, type CliProcess } from '../helpers/cli-process.ts';
import { freePort } from '../helpers/npm-start.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';

const SLUG = 'e2e-logs';
const SECRET_VALUE = `tok-${randomBytes(8).toString('hex')}`;

const cleanups: Array<() => Promise<unknown>> = [];
let stack: Stack;
let node: RuntimeNode;
let runtimeUrl: string;
let ws: CreatedWorkspace;
let appId: string;
let configDir: string;
let runtimeMetricsUrl: string;
let workDir: string;

beforeAll(async () => {
  const port = await freePort();
  const controlPlaneUrl = `http://127.0.0.1:${port}`;
  const runtimeSecret = randomBytes(24).toString('base64url');
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-logs-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  configDir = join(dataDir, 'cli-config');
  workDir = join(dataDir, 'work');
  await mkdir(workDir);
  node = createRuntimeNode({
    config: loadConfig({
      RUNTIME_SECRET: runtimeSecret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: join(dataDir, 'runtime'), RUNTIME_WORKERS: '1',
      CONTROL_PLANE_URL: controlPlaneUrl, RUNTIME_STARTUP_CPU_MS: '500', RUNTIME_DIRECTORY_TTL_MS: '10', LOG_LEVEL: 'silent',
    }),
    logger: pino({ level: 'silent' }),
  });
  ({ url: runtimeUrl, metricsUrl: runtimeMetricsUrl } = await node.start());
  cleanups.push(() => node.stop());
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: controlPlaneUrl, RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: runtimeSecret } });
  cleanups.push(() => stack.stop());

  ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Logs end to end', slug: SLUG, hosting: 'platform' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  const secret = await stack.v0(ws.apiKey).put(`/apps/${appId}/env/production/API_TOKEN`, { value: SECRET_VALUE, secret: true });
  expect(secret.status, JSON.stringify(secret.body)).toBe(200);
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/e2e/logs-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${appId}/versions?target=production`, {
    rawBody: bundled.outputFiles[0]!.contents, headers: { 'content-type': 'application/javascript' },
  });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
}, 90_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const route = (path: string) => fetch(`${runtimeUrl}/apps/${SLUG}${path}`);

/** The CLI in its own process, as `platform …` runs it (from source), with the stack's URL and key. */
function startCli(args: string[]): CliProcess {
  return spawnCli({ cwd: workDir, args, env: { HOME: configDir, PLATFORM_CONFIG_DIR: configDir, PLATFORM_URL: stack.url, PLATFORM_API_KEY: ws.apiKey } });
}

async function metric(pattern: RegExp): Promise<number> {
  return Number(pattern.exec(await (await fetch(runtimeMetricsUrl)).text())?.[1] ?? 0);
}

describe('platform logs against a running stack', () => {
  it('--follow prints the stack of a route that throws as it happens', { timeout: 60_000 }, async () => {
    const cli = startCli(['logs', appId, '--follow']);
    cleanups.push(async () => { if (cli.child.exitCode === null) cli.child.kill('SIGKILL'); });
    await cli.waitFor('stderr', /Following the logs of app_/);
    const errorsBefore = await metric(new RegExp(`runtime_requests_total\\{app="${appId}",kind="route",outcome="error"\\} (\\d+)`));

    const res = await route('/boom');
    expect(res.status).toBe(500);
    const output = await cli.waitFor('stdout', /explodeForTheLogs[\s\S]*GET \/apps\/e2e-logs\/boom → 500 error/);
    expect(output).toContain('the boom route failed on purpose');
    expect(output).toMatch(/ERROR\s+Request failed: GET \/apps\/e2e-logs\/boom/);
    // Piped, not a terminal: no colour codes.
    expect(output).not.toMatch(/\u001b\[/);

    const hello = await route('/hello');
    expect(hello.status).toBe(200);
    const more = await cli.waitFor('stdout', /hello with the token/);
    expect(more).toContain('hello with the token [redacted]');
    expect(more).not.toContain(SECRET_VALUE);

    // The SDK turned the throw into a 500: the node counts it as an error all the same.
    expect(await metric(new RegExp(`runtime_requests_total\\{app="${appId}",kind="route",outcome="error"\\} (\\d+)`))).toBe(errorsBefore + 1);

    cli.child.kill('SIGTERM');
    const { code } = await cli.exited;
    expect(code).toBe(0);
  });

  it('--status error --json reads the stored lines of failed requests', async () => {
    const cli = startCli(['logs', SLUG, '--status', 'error', '--json', '--limit', '20']);
    const { code, stdout, stderr } = await cli.exited;
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { level: string; status: string; message: string; request: { httpStatus: number; label: string } | null; error: { frames: Array<{ function: string | null }> } | null });
    expect(lines.every((l) => l.status === 'error')).toBe(true);
    expect(lines.find((l) => l.level === 'request')?.request).toMatchObject({ label: 'GET /apps/e2e-logs/boom', httpStatus: 500 });
    expect(lines.some((l) => l.level === 'error' && l.error?.frames[0]?.function === 'explodeForTheLogs')).toBe(true);
    expect(stdout).not.toContain(SECRET_VALUE);
  });

  it('explains a CPU-limit kill: the next stopped request\'s profile is linked from its line and saved by --profile', { timeout: 60_000 }, async () => {
    expect((await route('/spin')).status).toBe(503);
    expect((await route('/spin')).status).toBe(503);
    const listed = await startCli(['logs', appId, '--status', 'error', '--limit', '10']).exited;
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/LIMIT\s+The request used more than its 50 ms CPU budget and was stopped\./);
    const lineId = /CPU profile: platform logs --profile (\d+)/.exec(listed.stdout)?.[1];
    expect(lineId, listed.stdout).toBeDefined();

    const saved = await startCli(['logs', appId, '--profile', lineId!]).exited;
    expect(saved.code, saved.stderr).toBe(0);
    const profile = JSON.parse(await readFile(join(workDir, `${appId}-${lineId}.cpuprofile`), 'utf8')) as { nodes: Array<{ callFrame: { url: string } }>; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(profile.timeDeltas).toHaveLength(profile.samples.length);
    expect(profile.nodes.some((n) => n.callFrame.url === 'app:///bundle.js')).toBe(true);
  });

  it('refuses a wrong flag with its usage, and explains itself with --help', async () => {
    const wrong = await startCli(['logs', appId, '--status', 'bad']).exited;
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--status is ok or error');
    const help = await startCli(['logs', '--help']).exited;
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: platform logs');
  });
});
