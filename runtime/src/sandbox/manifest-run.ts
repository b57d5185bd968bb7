/**
 * @module sandbox/manifest-run
 * Evaluates a bundle in a fresh isolate that belongs to no pool and reads the manifest its code
 * computes, under one CPU budget for evaluation and reading together; the isolate is then disposed.
 */
import type { RequestScope } from '../capabilities/types.ts';
import type { FromWorker, ManifestJob, RunError } from '../protocol/messages.ts';
import type { Executor } from './executor.ts';
import type { SlotHandler } from './host-bridge.ts';
import { createLogBuffer } from './log-buffer.ts';
import { StartupError, type Pool } from './pool.ts';
import type { Slot } from './slot.ts';
import { stopSlot, type StopResult } from './stop.ts';

export async function runManifest(deps: { pool: Pool; executor: Executor; send: (m: FromWorker) => void; now: () => number }, job: ManifestJob): Promise<void> {
  const started = deps.now();
  const account = { usedUs: 0, limitUs: job.cpuBudgetMs * 1000 };
  const logs = createLogBuffer([], deps.now);
  const scope: RequestScope = {
    requestId: job.id,
    startup: true,
    log: (level, text) => logs.add(level, text),
    startFetch: () => logs.add('error', 'fetch() is not available while the manifest is read'),
    abortFetch: () => {},
    setTimer: () => {},
    clearTimer: () => {},
  };
  const handler: SlotHandler = { scope, core: () => {}, charge: (us) => { account.usedUs += us; } };
  const finish = (outcome: 'ok' | 'error' | 'cpu_limit' | 'memory_limit', result: { error?: RunError; manifestJson?: string }): void => {
    deps.send({ t: 'result', id: job.id, ...result, report: { outcome, cpuMs: account.usedUs / 1000, wallMs: deps.now() - started, coldStartMs: null, ...logs.take() } });
  };
  let slot: Slot | null = null;
  try {
    slot = await deps.pool.startDetached(job.version, handler, account);
    const s = slot;
    let stopped: ReturnType<typeof stopSlot> | null = null;
    const read = await deps.executor.submit({ account, run: () => s.readManifest(), onOverBudget: () => { stopped = stopSlot(s, 'cpu', true, deps.now); } })
      .catch(async () => {
        const result = stopped === null ? null : await stopped;
        if (result !== null) throw new StartupError('cpu', 'Reading the manifest used more CPU than allowed', (result as StopResult).stack);
        throw new StartupError(s.disposed && s.killReason === null ? 'memory' : 'error', 'Reading the manifest failed');
      });
    if (typeof read !== 'object' || read === null) return finish('error', { error: { tag: 'PlatformAppBundleInvalidError', message: 'The manifest could not be read' } });
    if (read.ok !== true || typeof read.json !== 'string') {
      const message = read.ok === false && typeof read.message === 'string' ? read.message : 'The manifest could not be read';
      return finish('error', { error: { tag: 'PlatformAppBundleInvalidError', message: message.slice(0, 2000) } });
    }
    finish('ok', { manifestJson: read.json });
  } catch (err) {
    if (!(err instanceof StartupError)) {
      deps.send({ t: 'log', level: 'error', message: 'evaluating a bundle failed', error: err instanceof Error ? err.stack ?? err.message : String(err) });
      return finish('error', { error: { tag: 'PlatformApiInternalServerError', message: 'The bundle could not be evaluated' } });
    }
    if (err.kind === 'cpu') {
      logs.addLimit(`Evaluating the bundle used more than ${job.cpuBudgetMs} ms of CPU${err.guestStack === null ? '' : ` and was stopped at:\n${err.guestStack}`}`);
      return finish('cpu_limit', { error: { tag: 'PlatformRuntimeCpuLimitError', message: err.message, fields: { limitMs: job.cpuBudgetMs } } });
    }
    if (err.kind === 'memory') return finish('memory_limit', { error: { tag: 'PlatformRuntimeMemoryLimitError', message: 'The bundle ran out of memory while being evaluated' } });
    finish('error', { error: { tag: 'PlatformAppBundleInvalidError', message: err.message.slice(0, 2000) } });
  } finally {
    slot?.dispose('shutdown');
  }
}
