/**
 * Issue 20 item 5 on a runtime node, real isolates over real HTTP: an app built the way `platform
 * deploy` builds it (minified, its source map beside it with the project's file names) runs with
 * its map pushed beside its bundle, and every stack the node ships names the author's file, line
 * and function: a route that throws (the SDK logs it), an Error the app logs, an error no one
 * caught, a bundle that throws while it loads, the guest's stack when stopped at its CPU budget, and
 * the frames of that stop's CPU profile. The bundle's position stays beside each mapped frame. A map
 * that is not one, too large, or pointing nowhere leaves the frames as the bundle names them, says
 * so once, and never stops a line from being logged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS, type LogError } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, type Bundle } from '../../cli/src/bundle.ts';
import type { AppLogEntry } from '../../runtime/src/logs/app-log.ts';
import { SECRET, sha256, startRuntime, startServer, type TestRuntime, type TestServer } from './support/runtime.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/stacks/', import.meta.url));
// The lines of test/fixtures/stacks/*.ts the tests name.
const LINES = { explode: 7, spin: 12, logged: 16, failHard: 4, readSettings: 6 } as const;

let rt: TestRuntime;
let out: string;
let app: Bundle;
let raw: Bundle;
let profiles: TestServer;
const shipped: Array<AppLogEntry & { profile?: string }> = [];
const waiting: Array<() => void> = [];

const build = (entry: string, name: string) => buildBundle({ entry, cwd: FIXTURES, outfile: join(out, name, 'bundle.js') });

/** Pushes the bundle and its map and makes `slug` serve them. */
async function deploy(slug: string, bundle: Bundle, sourceMap: Uint8Array | null = bundle.sourceMap): Promise<void> {
  const code = new TextDecoder().decode(bundle.code);
  const mapSha = sourceMap === null ? null : sha256(sourceMap);
  if (sourceMap !== null) await rt.client.putSourceMap(mapSha!, sourceMap);
  await rt.deploy(slug, code, { appId: `app_${slug}`, sourceMapSha256: mapSha });
}

async function shippedLine(test: (l: AppLogEntry & { profile?: string }) => boolean): Promise<AppLogEntry & { profile?: string }> {
  for (;;) {
    const found = shipped.find(test);
    if (found !== undefined) return found;
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

const errorOf = async (res: Response, level = 'error'): Promise<LogError> => {
  const id = res.headers.get('x-request-id');
  return (await shippedLine((l) => l.requestId === id && l.level === level && l.error !== undefined)).error!;
};

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'stacks-test-'));
  [app, raw] = await Promise.all([build('app.ts', 'app'), build('raw.ts', 'raw')]);
  // A stand-in control plane that records the shipped lines (profiles ride on them).
  profiles = await startServer((req, res, body) => {
    if (req.url === '/internal/v1/logs') {
      shipped.push(...(JSON.parse(body) as { lines: typeof shipped }).lines);
      for (const wake of waiting.splice(0)) wake();
      return void res.writeHead(204).end();
    }
    res.writeHead(404).end();
  });
  rt = await startRuntime({ CONTROL_PLANE_URL: profiles.url, RUNTIME_LOG_FLUSH_MS: '20' });
  await deploy('stacks', app);
  await deploy('raw-stacks', raw);
}, 90_000);

afterAll(async () => {
  for (const wake of waiting.splice(0)) wake();
  await rt?.stop();
  await profiles?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('stacks name the author\'s file, line and function', () => {
  it('a route that throws: the SDK\'s error line carries the error with its frames, the bundle\'s position beside each', async () => {
    const res = await rt.route('stacks', '/boom/ada');
    expect(res.status).toBe(500);
    const error = await errorOf(res);
    expect(error).toMatchObject({ name: 'Error', message: 'no greeting for ada' });
    expect(error.frames[0]).toMatchObject({ function: 'explode', file: 'app.ts', line: LINES.explode });
    expect(error.frames[0]!.raw).toMatchObject({ file: 'app:///bundle.js', line: expect.any(Number), column: expect.any(Number) });
    // The route's handler keeps the name V8 gives it (its key is never renamed; the SDK calls it as `handler`), at its own line.
    expect(error.frames[1]).toMatchObject({ function: 'GET /boom/:name [as handler]', file: 'app.ts', line: 25 });
    // The SDK's own frames name its files too.
    expect(error.frames.some((f) => f.file?.includes('node_modules/@platform/sdk') || f.file?.includes('sandbox-lib/'))).toBe(true);
    // The line's text is the request as it came in, not an object dump.
    const line = await shippedLine((l) => l.requestId === res.headers.get('x-request-id') && l.level === 'error');
    expect(line.message).toBe('Request failed: GET /apps/stacks/boom/ada');
  });

  it('an Error the app logs with console.error is the line\'s error, out of its text', async () => {
    const res = await rt.route('stacks', '/logged');
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    const line = await shippedLine((l) => l.requestId === id && l.level === 'error');
    expect(line.message).toBe('custom failure');
    expect(line.error).toMatchObject({ name: 'TypeError', message: 'logged on purpose' });
    expect(line.error!.frames[0]).toMatchObject({ function: 'logAnError', file: 'app.ts', line: LINES.logged });
  });

  it('an error no handler caught (no SDK) names the function and line it was thrown from', async () => {
    const res = await rt.route('raw-stacks', '/nowhere');
    expect(res.status).toBe(500);
    const error = await errorOf(res);
    expect(error).toMatchObject({ name: 'RangeError', message: 'nothing at /nowhere' });
    expect(error.frames[0]).toMatchObject({ function: 'failHard', file: 'raw.ts', line: LINES.failHard });
    // The guest runtime's own frames are not the author's: left out.
    expect(error.frames.every((f) => f.file !== 'platform:///guest-runtime.js')).toBe(true);
  });

  it('a CPU-limit stop names the author\'s function where it was stopped, and the next stop\'s profile names app.ts', { timeout: 60_000 }, async () => {
    const first = await rt.route('stacks', '/spin');
    expect(first.status).toBe(503);
    const stopped = await errorOf(first, 'limit');
    expect(stopped.name).toBe('PlatformRuntimeCpuLimitError');
    expect(stopped.frames[0]).toMatchObject({ function: 'spinForever', file: 'app.ts', line: LINES.spin });

    // The next request of the version runs under the profiler, and is stopped too.
    const second = await rt.route('stacks', '/spin');
    expect(second.status).toBe(503);
    const id = second.headers.get('x-request-id');
    const limit = await shippedLine((l) => l.requestId === id && l.level === 'limit');
    const profile = JSON.parse(limit.profile!) as { nodes: Array<{ callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount: number }> };
    const spin = profile.nodes.filter((n) => n.callFrame.url === 'app.ts' && n.callFrame.functionName === 'spinForever');
    expect(spin.length).toBeGreaterThan(0);
    // 0-based, as DevTools reads them: the function starts on line 10 of the file.
    expect(spin[0]!.callFrame.lineNumber).toBe(9);
    expect(profile.nodes.filter((n) => n.callFrame.url === 'app:///bundle.js')).toEqual([]);
  });

  it('a bundle that throws while it loads: the manifest read answers the line that threw, in its message and as data', async () => {
    const bundle = await build('load-error.ts', 'load-error');
    const failed = await rt.client.manifest({ bundle: bundle.code, sourceMap: bundle.sourceMap }).then(() => null, (err: { status: number; body: Record<string, unknown> }) => err);
    expect(failed?.status).toBe(422);
    expect(failed!.body._tag).toBe('PlatformAppBundleInvalidError');
    expect(failed!.body.message).toContain('The bundle failed to start: Error: the settings are missing on purpose');
    expect(failed!.body.message).toContain(`at readSettings (load-error.ts:${LINES.readSettings}:`);
    expect((failed!.body.error as LogError).frames[0]).toMatchObject({ function: 'readSettings', file: 'load-error.ts', line: LINES.readSettings });
  });
});

describe('a map that cannot be used never breaks logging', () => {
  const cases: Array<[string, () => Uint8Array, RegExp]> = [
    ['not JSON', () => new TextEncoder().encode('{ this is not json'), /not JSON/],
    ['not a source map', () => new TextEncoder().encode(JSON.stringify({ version: 2, mappings: 7 })), /not a version 3 source map/],
    ['an index map', () => new TextEncoder().encode(JSON.stringify({ version: 3, sections: [] })), /index maps/],
    ['too many segments', () => new TextEncoder().encode(JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA,'.repeat(3_000_001) })), /mapping segments/],
  ];
  for (const [what, map, reason] of cases) {
    it(`${what}: the frames keep the bundle's positions and one line says why`, async () => {
      const slug = `bad-${what.replace(/[^a-z]+/g, '-')}`.slice(0, 30).replace(/-$/, '');
      await deploy(slug, app, map());
      const res = await rt.route(slug, '/boom/bo');
      expect(res.status).toBe(500);
      const error = await errorOf(res);
      expect(error.message).toBe('no greeting for bo');
      expect(error.frames[0]).toMatchObject({ file: 'app:///bundle.js', raw: null });
      const id = res.headers.get('x-request-id');
      const told = await shippedLine((l) => l.requestId === id && l.level === 'warn');
      expect(told.message).toMatch(reason);
      // Once per worker: the next error of the version says nothing more about the map.
      const again = await rt.route(slug, '/boom/again');
      await errorOf(again);
      await shippedLine((l) => l.requestId === again.headers.get('x-request-id') && l.level === 'request');
      expect(shipped.filter((l) => l.requestId === again.headers.get('x-request-id') && l.level === 'warn')).toEqual([]);
    });
  }

  it('a map that points nowhere leaves the frames it does not cover as they were', async () => {
    const nowhere = new TextEncoder().encode(JSON.stringify({ version: 3, sources: ['elsewhere.ts'], names: ['x'], mappings: 'AAAAA' }));
    await deploy('nowhere', app, nowhere);
    const res = await rt.route('nowhere', '/boom/x');
    const error = await errorOf(res);
    // One segment at line 1, column 0 covers positions on line 1 only; none are invented elsewhere.
    for (const f of error.frames) if (f.raw !== null) expect(f.file).toBe('elsewhere.ts');
    expect(error.frames.some((f) => f.file === 'app:///bundle.js' || f.file === 'elsewhere.ts')).toBe(true);
  });

  it('a map the control plane never had: the request runs, its frames name the bundle', async () => {
    const missing = 'c'.repeat(64);
    await rt.deploy('no-map-here', new TextDecoder().decode(app.code), { appId: 'app_no_map_here', sourceMapSha256: missing });
    const res = await rt.route('no-map-here', '/boom/y');
    expect(res.status).toBe(500);
    const error = await errorOf(res);
    expect(error.frames[0]).toMatchObject({ file: 'app:///bundle.js', raw: null });
  });

  it('a map over the limit is refused when pushed', async () => {
    const res = await fetch(`${rt.url}/internal/v1/source-maps/${'d'.repeat(64)}`, {
      method: 'PUT', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(LIMITS.hosted.sourceMapBytes + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError' });
  });
});
