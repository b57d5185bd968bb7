/**
 * @module supervisor/worker-messages
 * What a sandbox worker says about one of its requests (its answer, its end, a profile, an egress
 * call or its abort) or about itself (stats, a log line, ready), taken to the dispatcher, the
 * egress relay, the metrics or the node's log.
 */
import { PlatformError } from '@platform/sdk';
import type { Logger } from 'pino';
import type { Egress } from '../egress/service.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker } from '../protocol/messages.ts';
import type { Dispatcher } from './dispatcher.ts';
import { abortEgress, relayEgress } from './egress-relay.ts';
import { toPlatformError, type Pending } from './pending.ts';
import type { Reports } from './reports.ts';
import type { WorkerRef } from './workers.ts';

export function workerMessages(deps: { dispatcher: Dispatcher; egress: Egress; reports: Reports; metrics: Metrics; logger: Logger; local: (w: WorkerRef, id: string) => Pending | undefined }) {
  const { dispatcher, reports, metrics, logger } = deps;
  return (w: WorkerRef, msg: FromWorker, body: FrameBody): void => {
    switch (msg.t) {
      case 'response':
      case 'end': {
        const p = w.jobs.get(msg.id);
        if (p === undefined) return;
        if (msg.t === 'response') dispatcher.answer(p, { kind: 'response', head: msg.response, body, report: msg.report ?? null });
        if (msg.report === undefined) return;
        dispatcher.release(w, p);
        const error = msg.t === 'end' && msg.error !== undefined ? toPlatformError(msg.error) : null;
        // An end without a response (and no error named) is still an answer the caller must get.
        if (msg.t === 'end' && p.type === 'run') dispatcher.answer(p, { kind: 'error', error: error ?? new PlatformError('PlatformRuntimeGuestError', 'The app did not answer'), report: msg.report });
        dispatcher.finish(p, msg.report, error, msg.t === 'end' ? body : null);
        return;
      }
      case 'profile': {
        const p = w.jobs.get(msg.id);
        if (p !== undefined && body !== null) p.profile = body.toString('utf8');
        return;
      }
      case 'egress': {
        const p = w.jobs.get(msg.id) ?? deps.local(w, msg.id);
        if (p !== undefined) relayEgress({ egress: deps.egress, reports }, p, msg, body, (m, b) => w.handle.send(m, b ?? null));
        return;
      }
      case 'egress-abort': {
        const p = w.jobs.get(msg.id) ?? deps.local(w, msg.id);
        if (p !== undefined) abortEgress(p, msg.opId);
        return;
      }
      case 'stats':
        metrics.isolatesLive.set({ worker: w.name }, msg.isolates);
        metrics.isolateHeap.set({ worker: w.name }, msg.heapBytes);
        return;
      case 'log':
        logger[msg.level]({ worker: w.name, err: msg.error }, msg.message);
        return;
      case 'ready':
        return;
    }
  };
}
