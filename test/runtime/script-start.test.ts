// Cold starts through a worker's real pool, request runner and isolates, in this process: a
// bundle's first start runs it as a module; between requests its script form is prepared; later
// cold starts of the same sha256 compile the script with the cached code. What the app sees and
// what its log says (error positions, startup failures) is the same either way, and bundles the
// conversion refuses keep starting as modules, exactly as before.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerLimits } from '../../runtime/src/config/config.ts';
import type { FromWorker, RunError, RunJob, RunReport, VersionSpec } from '../../runtime/src/protocol/messages.ts';
import { createBackground, type Background, type BundleCounts } from '../../runtime/src/sandbox/background.ts';
import { buildGuestSource } from '../../runtime/src/sandbox/guest-source.ts';
import { loadIvm } from '../../runtime/src/sandbox/ivm.ts';
import { createJournal } from '../../runtime/src/protocol/journal.ts';
import { createPool } from '../../runtime/src/sandbox/pool.ts';
import { runRequest } from '../../runtime/src/sandbox/request-run.ts';
import { createBlankSlot } from '../../runtime/src/sandbox/slot.ts';
import { frameText } from '../../runtime/src/stacks/map.ts';

interface Result {
  body: string | null;
  error: RunError | null;
  report: RunReport;
}

interface Worker {
  background: Background;
  counts(): BundleCounts;
  /** A route request to version `version` of a bundle (a new version is a cold start). */
  request(source: string, version: number): Promise<Result>;
  stop(): void;
}

const LIMITS: WorkerLimits = { isolateMemoryMb: 64, isolateBudgetMb: 256, poolMax: 2, isolateIdleMs: 60_000, startupCpuMs: 200, allowWasm: false, isolatedVm: 'patched' };

async function startWorker(): Promise<Worker> {
  const dir = mkdtempSync(join(tmpdir(), 'script-start-'));
  const ivm = loadIvm();
  const guestSource = await buildGuestSource();
  const blank = () => createBlankSlot(ivm, guestSource, { memoryLimitMb: LIMITS.isolateMemoryMb, allowWasm: false, onCatastrophicError: () => {} });
  const pool = createPool(LIMITS, Date.now);
  const background = createBackground({ ivm, isolateMemoryMb: LIMITS.isolateMemoryMb, blank });
  let seq = 0;
  return {
    background,
    counts: () => ({ ...background.counts }),
    request(source, version) {
      const sha = createHash('sha256').update(source).digest('hex');
      const bundlePath = join(dir, `${sha}.js`);
      writeFileSync(bundlePath, source);
      const spec: VersionSpec = { vid: version, key: `app_script@${version}:${sha}`, appId: 'app_script', sha256: sha, bundlePath, sourceMapPath: null, env: {}, redact: [] };
      const job: RunJob = {
        seq: ++seq, id: `req_${seq}`, vid: version, kind: 'route', cpuBudgetMs: 200, deadlineMs: 10_000, maxResponseBytes: 1_000_000,
        method: 'GET', url: 'https://app.example/', headers: '', deliveryId: null,
      };
      return new Promise((resolve) => {
        const send = (msg: FromWorker, out?: Buffer | string | null): void => {
          if (msg.t === 'response' && msg.id === job.id && msg.report !== undefined) resolve({ body: out === undefined || out === null ? null : String(out), error: null, report: msg.report });
          if (msg.t === 'end' && msg.id === job.id) resolve({ body: null, error: msg.error ?? null, report: msg.report });
        };
        runRequest({ pool, background, blank, journal: createJournal(null), startupCpuMs: LIMITS.startupCpuMs, send, now: Date.now }, spec, job, null, 'text', () => {});
      });
    },
    stop() {
      pool.disposeAll();
      background.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const body = (r: Result): string => r.body ?? '';
/** The lines as text, each error's frames below it (unmapped here: these bundles have no source map). */
const logText = (r: Result): string => r.report.logs.map((l) => [l.message, ...(l.error?.frames.map(frameText) ?? [])].join('\n')).join('\n');

/** `app:///bundle.js:line:column` of the first occurrence of `needle` in `source`. */
function positionOf(source: string, needle: string): string {
  const at = source.indexOf(needle);
  const lines = source.slice(0, at).split('\n');
  return `app:///bundle.js:${lines.length}:${lines.at(-1)!.length + 1}`;
}

let worker: Worker;
let version = 0;
beforeAll(async () => { worker = await startWorker(); });
afterAll(() => worker?.stop());

/** Two cold starts of `source` (two versions): the first as a module, the second after the background work settled. */
async function twoColdStarts(source: string): Promise<[Result, Result]> {
  const first = await worker.request(source, ++version);
  await worker.background.idle();
  const second = await worker.request(source, ++version);
  return [first, second];
}

describe('a bundle the conversion accepts', () => {
  const source = [
    'const greeting = "hello";',
    'export default {',
    '  fetch(request) {',
    '    return new Response(`${greeting} ${new URL(request.url).host}`);',
    '  },',
    '};',
  ].join('\n');

  it('starts as a module, then from the cached script: a second cold start of the same sha256 uses the code cache', async () => {
    const before = worker.counts();
    const [first, second] = await twoColdStarts(source);
    const after = worker.counts();
    expect([body(first), body(second)]).toEqual(['hello app.example', 'hello app.example']);
    expect([first.report.coldStartMs, second.report.coldStartMs].every((ms) => ms !== null)).toBe(true);
    expect(after.moduleStarts - before.moduleStarts).toBe(1);
    expect(after.prepared - before.prepared).toBe(1);
    expect(after.scriptStarts - before.scriptStarts).toBe(1);
    expect(after.cacheRejected).toBe(0);

    const third = await worker.request(source, ++version);
    expect(body(third)).toBe('hello app.example');
    expect(worker.counts().scriptStarts - before.scriptStarts).toBe(2);
    expect(worker.counts().prepared - before.prepared).toBe(1);
  });

  it('reports an error thrown in fetch at its line and column of the bundle, from the module and from the script', async () => {
    const throwing = [
      '// a comment on line 1',
      'export const unused = 1;',
      'const app = {',
      '  fetch() {',
      '    const x = null;   return x.boom;',
      '  },',
      '};',
      'export { app as default };',
    ].join('\n');
    const scriptStarts = worker.counts().scriptStarts;
    const [first, second] = await twoColdStarts(throwing);
    expect(worker.counts().scriptStarts).toBe(scriptStarts + 1);
    // V8 places a failed property read at the property's name.
    const at = positionOf(throwing, 'boom');
    expect(at).toBe('app:///bundle.js:5:32');
    for (const r of [first, second]) {
      expect(r.error?.tag).toBe('PlatformRuntimeGuestError');
      expect(logText(r)).toContain(`TypeError: Cannot read properties of null (reading 'boom')`);
      expect(logText(r)).toContain(`at Object.fetch (${at})`);
    }
  });

  it('reports an error on line 1 at its column (the wrapper has a line of its own)', async () => {
    const oneLine = 'export default { fetch() { return null.first; } };';
    const [first, second] = await twoColdStarts(oneLine);
    for (const r of [first, second]) expect(logText(r)).toContain(`at Object.fetch (${positionOf(oneLine, 'first')})`);
  });

  it('fails a bundle that throws at top level with the same message either way', async () => {
    const failing = 'const x = 1;\nthrow new Error("top level boom");\nexport default { fetch() { return new Response("never"); } };';
    const [first, second] = await twoColdStarts(failing);
    for (const r of [first, second]) {
      expect(r.report.outcome).toBe('error');
      expect(r.error).toEqual({ tag: 'PlatformAppBundleInvalidError', message: 'The bundle failed to start: Error: top level boom' });
      // Where it threw, as data beside the line.
      expect(r.report.logs.find((l) => l.level === 'error')?.error?.frames[0]).toMatchObject({ file: 'app:///bundle.js', line: 2 });
    }
  });

  it('reports a bundle without a usable default export the same way either way', async () => {
    const [first, second] = await twoColdStarts('export const fetch = () => new Response("x");');
    for (const r of [first, second]) expect(r.error).toEqual({ tag: 'PlatformAppBundleInvalidError', message: 'The bundle has no default export object' });
  });

  it('stops a top level over its startup CPU budget and logs the stack at the bundle\'s positions either way', async () => {
    const spinning = 'let n = 0;\nfunction spin() {\n  for (;;) n++;\n}\n  spin();\nexport default { fetch() {} };';
    const [first, second] = await twoColdStarts(spinning);
    for (const r of [first, second]) {
      expect(r.report.outcome).toBe('cpu_limit');
      const line = r.report.logs.find((l) => l.level === 'limit');
      expect(line?.message).toContain(`Starting the bundle used more than ${LIMITS.startupCpuMs} ms of CPU`);
      // A stack is captured where V8 can interrupt (it may be skipped when the core is contended).
      if (line?.error !== undefined) {
        const limit = [line.message, ...line.error.frames.map(frameText)].join('\n');
        expect(limit).toContain(`at spin (${positionOf(spinning, 'n++').replace(/:\d+$/, ':')}`);
        expect(limit).toContain(positionOf(spinning, 'spin();'));
      }
    }
  });
});

describe('bundles that keep starting as modules', () => {
  it('refuses imports with the same message as before, and never prepares a script for them', async () => {
    const importing = 'import { x } from "./x.js";\nexport default { fetch() { return new Response(x); } };';
    const prepared = worker.counts().prepared;
    const [first, second] = await twoColdStarts(importing);
    for (const r of [first, second]) {
      expect(r.error).toEqual({ tag: 'PlatformAppBundleInvalidError', message: 'The bundle failed to start: import "./x.js" cannot be resolved: hosted bundles must be self-contained' });
    }
    expect(worker.counts().prepared).toBe(prepared);
  });

  it.each([
    ['a dynamic import', 'export default {\n  fetch() { const load = () => import("./x.js"); return null.dynamicProbe; },\n};', 'dynamicProbe'],
    ['import.meta', 'const here = import.meta;\nexport default {\n  fetch() { return null.metaProbe; },\n};', 'metaProbe'],
    ['top-level arguments', 'const kind = typeof arguments;\nexport default {\n  fetch() { return null.argumentsProbe; },\n};', 'argumentsProbe'],
  ])('%s: module starts only, errors still at their positions', async (_name, source, needle) => {
    const before = worker.counts();
    const [first, second] = await twoColdStarts(source);
    const after = worker.counts();
    expect(after.moduleStarts - before.moduleStarts).toBe(2);
    expect(after.scriptStarts).toBe(before.scriptStarts);
    expect(after.refused - before.refused).toBe(1);
    for (const r of [first, second]) expect(logText(r)).toContain(`at Object.fetch (${positionOf(source, needle)})`);
  });
});
