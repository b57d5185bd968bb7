/**
 * @module sandbox/manifest-run
 * Evaluates a bundle in a fresh isolate that belongs to no pool and reads the manifest its code
 * computes, under one CPU budget for evaluation and reading together; the isolate is then disposed.
 * The manifest JSON leaves as the body of the `end` message.
 */
import type { RequestScope } from '../capabilities/types.ts';
import type { FromWorker, ManifestJob, Outcome, RunError, VersionSpec } from '../protocol/messages.ts';
import { createLogBuffer } from './log-buffer.ts';
import type { SlotHandler } from './host-bridge.ts';
import type { Journal } from '../protocol/journal.ts';
import { compileBundle, failedToStart } from './cold-start.ts';
import { frameText, type RawError } from '../stacks/map.ts';
import { stoppedAt, versionStacks } from './stacks.ts';
import { runSlice } from './slice.ts';
import type { Background } from './background.ts';
import type { Slot } from './slot.ts';

/** The error the manifest's code threw, as the guest runtime copied it out (checked: it is guest data). */
function thrownByManifest(error: unknown): RawError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, message, stack } = error as Record<string, unknown>;
  if (typeof name !== 'string' || typeof message !== 'string' || typeof stack !== 'string') return null;
  return { name: name.slice(0, 100), message: message.slice(0, 2_000), stack: stack.slice(0, 8_000) };
}

export function runManifest(deps: { blank: () => Slot; background: Background; journal: Journal; send: (m: FromWorker, body?: string | null) => void; now: () => number }, spec: VersionSpec, job: ManifestJob): void {
  const started = deps.now();
  const account = { usedNs: 0, limitNs: job.cpuBudgetMs * 1e6 };
  const logs = createLogBuffer([], deps.now, spec.sourceMapPath);
  const scope: RequestScope = {
    requestId: job.id,
    startup: true,
    log: (level, text) => logs.add(level, text),
    startFetch: () => logs.add('error', 'fetch() is not available while the manifest is read'),
    abortFetch: () => {},
    setTimer: () => {},
    clearTimer: () => {},
  };
  const handler: SlotHandler = { scope, core: () => {}, charge: (us) => { account.usedNs += us * 1000; } };
  const finish = (outcome: Outcome, error: RunError | null, manifestJson: string | null = null): void => {
    const report = { outcome, cpuMs: Math.round(account.usedNs / 1000) / 1000, wallMs: deps.now() - started, coldStartMs: null, ...logs.take() };
    deps.send(error === null ? { t: 'end', id: job.id, report } : { t: 'end', id: job.id, report, error }, manifestJson);
  };
  // A load failure names where it happened: the thrown error's mapped frames, in the message (as a
  // stack's lines, for clients that show the message only) and as data (`error`).
  const invalid = (message: string, thrown: RawError | null = null): RunError => {
    if (thrown === null) return { tag: 'PlatformAppBundleInvalidError', message: message.slice(0, 2000) };
    const error = versionStacks(spec.sourceMapPath).error(thrown);
    const text = [message, ...error.frames.slice(0, 10).map(frameText)].join('\n');
    return { tag: 'PlatformAppBundleInvalidError', message: text.slice(0, 2000), fields: { error } };
  };

  let slot: Slot;
  try {
    slot = deps.blank();
  } catch (err) {
    deps.send({ t: 'log', level: 'error', message: 'creating an isolate failed', error: err instanceof Error ? err.stack ?? err.message : String(err) });
    return finish('error', { tag: 'PlatformApiInternalServerError', message: 'The bundle could not be evaluated' });
  }
  try {
    slot.handler = handler;
    let loaded;
    try {
      loaded = compileBundle(slot, spec, deps.background);
    } catch (err) {
      return finish('error', invalid(`The bundle failed to start: ${err instanceof Error ? err.message : 'unknown error'}`));
    }
    deps.journal.enter(job.seq);
    let problem: string | null = null;
    let read: { ok: true; json: string } | { ok: false; message: string } | null = null;
    const result = runSlice(slot.isolate, account, () => {
      loaded.evaluate();
      problem = loaded.bind();
      if (problem === null) read = slot.readManifest();
    });
    if (result.kind === 'cpu') {
      logs.addLimit(`Evaluating the bundle used more than ${job.cpuBudgetMs} ms of CPU and was stopped.`, stoppedAt(result.stack, job.cpuBudgetMs));
      return finish('cpu_limit', { tag: 'PlatformRuntimeCpuLimitError', message: 'Evaluating the bundle used more CPU than allowed', fields: { limitMs: job.cpuBudgetMs } });
    }
    if (result.kind === 'memory') return finish('memory_limit', { tag: 'PlatformRuntimeMemoryLimitError', message: 'The bundle ran out of memory while being evaluated' });
    if (result.kind === 'error') return finish('error', invalid(failedToStart(result), result.error));
    if (result.kind !== 'ok') return finish('error', invalid('The bundle failed to start: its isolate was disposed'));
    if (problem !== null) return finish('error', invalid(problem));
    const manifest = read as ReturnType<Slot['readManifest']> | null;
    if (manifest === null || typeof manifest !== 'object') return finish('error', invalid('The manifest could not be read'));
    if (manifest.ok !== true || typeof manifest.json !== 'string') {
      if (manifest.ok !== false || typeof manifest.message !== 'string') return finish('error', invalid('The manifest could not be read'));
      return finish('error', invalid(`Computing the manifest failed: ${manifest.message}`, thrownByManifest(manifest.error)));
    }
    finish('ok', null, manifest.json);
  } finally {
    slot.dispose('shutdown');
  }
}
