/**
 * @module supervisor/egress-relay
 * Guest fetches arrive here from workers and go out through the egress service with the request's
 * context (allow-list, install token, count), which only the supervisor holds. The answer goes back
 * to the worker with the body as the frame's bytes. Denials are noted in the app's log.
 */
import type { Egress } from '../egress/service.ts';
import { EgressDenied } from '../egress/policy.ts';
import type { FromWorker, ToWorker } from '../protocol/messages.ts';
import { fromHeaderBlock, toHeaderBlock } from '../shared/bridge.ts';
import type { Pending } from './pending.ts';
import type { Reports } from './reports.ts';

type EgressMessage = Extract<FromWorker, { t: 'egress' }>;

export function relayEgress(deps: { egress: Egress; reports: Reports }, pending: Pending, msg: EgressMessage, body: Buffer | null,
  reply: (msg: ToWorker, body?: Buffer | null) => void): void {
  if (pending.egress === null || pending.egressOps?.has(msg.opId) === true) return;
  const ac = new AbortController();
  const ops = pending.egressOps ??= new Map();
  ops.set(msg.opId, ac);
  const init = { method: msg.method, url: msg.url, headers: fromHeaderBlock(msg.headers), body, redirect: msg.redirect };
  // Calls to the platform's own /v0 are counted as what they do (storage, queue), not as egress.
  const counted = URL.parse(msg.url)?.origin !== pending.egress.platformOrigin;
  deps.egress.fetch(pending.egress, init, ac.signal).then(
    (r) => {
      ops.delete(msg.opId);
      if (counted) deps.reports.egress(pending, body?.byteLength ?? 0, r.body.byteLength);
      reply({ t: 'egress-result', id: pending.job.id, opId: msg.opId, ok: true, status: r.status, statusText: r.statusText, headers: toHeaderBlock(r.headers), url: r.url, redirected: r.redirected },
        Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength));
    },
    (err: unknown) => {
      ops.delete(msg.opId);
      const message = err instanceof Error ? err.message : 'fetch failed';
      if (err instanceof EgressDenied) deps.reports.note(pending, 'limit', `Outbound request blocked (${err.reason}): ${message}`);
      else if (counted) deps.reports.egress(pending, body?.byteLength ?? 0, 0);
      reply({ t: 'egress-result', id: pending.job.id, opId: msg.opId, ok: false, message: err instanceof EgressDenied ? `Egress denied: ${message}` : message });
    },
  );
}

export function abortEgress(pending: Pending, opId?: number): void {
  const ops = pending.egressOps;
  if (ops === null) return;
  if (opId !== undefined) {
    ops.get(opId)?.abort();
    ops.delete(opId);
    return;
  }
  for (const ac of ops.values()) ac.abort();
  ops.clear();
}
