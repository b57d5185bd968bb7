/**
 * @module sandbox/local-runs
 * Hosted ingress's run service in a worker that serves handed connections (RUNTIME_HANDOFF): a
 * request of an app whose ticket names a version spec runs here, in this worker's isolates, with no
 * hop to the supervisor (the same request runner, budgets and journal as any request); any other
 * is passed to the supervisor, which places it as it places every request (admission, quarantine)
 * and answers here. A local request tells the supervisor of itself only to call out (`local`, once,
 * then its `egress` frames as any request's) and at its end (`local-ends`, batched on a 20 ms timer: metrics, app log, the
 * scheduler's average), both after or beside its work, never before its answer.
 *
 * The journal names a local request by −vid (it has no job seq), so a worker that dies in it
 * leaves its version to quarantine; the supervisor's own jobs on this worker keep their seqs.
 */
import { isUtf8 } from 'node:buffer';
import { PlatformError } from '@platform/sdk';
import type { FrameBody } from '../protocol/channel.ts';
import type { FromWorker, HandoffSetup, IngressTicket, LocalEnd, RunJob, RunReport, ToWorker, VersionSpec } from '../protocol/messages.ts';
import type { RunInput, RunService } from '../runs/service.ts';
import type { RunDeps } from './request-context.ts';
import { runRequest, type RunningRequest } from './request-run.ts';

type RunResult = Awaited<ReturnType<RunService['run']>>;
type Send = RunDeps['send'];

export interface LocalRunDeps {
  setup: HandoffSetup;
  /** The worker's own deps of the request runner; `send` is its channel to the supervisor. */
  run: RunDeps;
  tickets: WeakMap<object, IngressTicket>;
  versions: Map<number, VersionSpec>;
  /** Requests in this worker by id (egress results reach them through it). */
  running: Map<string, RunningRequest>;
  /** The request (`RunInput.client`) enters guest code: its connection's journal says so first. */
  entering: (client: NonNullable<RunInput['client']>) => void;
  /** The request is passed to the supervisor (it may run there: never run again after a death here). */
  passing: (client: NonNullable<RunInput['client']>) => void;
}

/** A body as the guest receives it: text when it is UTF-8, else one byte per character. */
function guestBody(body: Buffer | string | null): { text: string | null; kind: 'text' | 'latin1' } {
  if (body === null || typeof body === 'string') return { text: body, kind: 'text' };
  return isUtf8(body) ? { text: body.toString('utf8'), kind: 'text' } : { text: body.toString('latin1'), kind: 'latin1' };
}

function toBuffer(body: Buffer | string | null | undefined, encoding: 'utf8' | 'latin1' = 'utf8'): Buffer | null {
  if (body === null || body === undefined) return null;
  return typeof body === 'string' ? Buffer.from(body, encoding) : body;
}

/**
 * How long a local request's end may wait for others before it is sent, and how many may wait: the
 * supervisor's metrics, app log and heavy-app average lag by at most this. The scheduler's average
 * needs nothing sooner: an app turns heavy over many requests, and admission lags by a batch.
 */
const END_BATCH_MS = 20;
const END_BATCH_MAX = 256;

export function createLocalRuns(deps: LocalRunDeps) {
  let n = 0;
  const passed = new Map<string, (r: RunResult) => void>();
  const channel = deps.run.send;
  // The ends go out in batches, on a short timer: each frame is a write here and a wake-up, a read
  // and a parse in the supervisor, which a frame per request made the largest part of both
  // processes' hand-off overhead (decisions/runtime.md, "Runtime v3 … worker CPU").
  let ends: LocalEnd[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flushEnds = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (ends.length === 0) return;
    channel({ t: 'local-ends', ends });
    ends = [];
  };

  const pass = (input: RunInput, id: string): Promise<RunResult> => new Promise((resolve) => {
    passed.set(id, resolve);
    if (input.client !== undefined) deps.passing(input.client);
    const { source: _source, client: _client, request, ...rest } = input;
    channel({ t: 'pass', id, input: { ...rest, request: { method: request.method, url: request.url, headers: request.headers } } }, request.body);
  });

  const local = (input: RunInput, id: string, spec: VersionSpec): Promise<RunResult> => new Promise((resolve) => {
    const budget = deps.setup.budgets[input.kind === 'mcp' ? 'mcp' : 'route'];
    const job: RunJob = {
      seq: -spec.vid, id, vid: spec.vid, kind: input.kind, cpuBudgetMs: budget.cpuMs, deadlineMs: budget.deadlineMs, maxResponseBytes: input.maxResponseBytes,
      method: input.request.method, url: input.request.url, headers: input.request.headers, deliveryId: null,
    };
    let answered = false;
    let calledOut = false;
    let status: number | null = null;
    const answer = (r: RunResult): void => {
      if (answered) return;
      answered = true;
      status = r.kind === 'response' ? r.head.status : r.error.status;
      resolve(r);
    };
    const end = (report: RunReport): void => {
      ends.push({ id, vid: spec.vid, label: input.label, kind: input.kind, httpStatus: status, report });
      if (ends.length >= END_BATCH_MAX) flushEnds();
      else timer ??= setTimeout(flushEnds, END_BATCH_MS);
    };
    const send: Send = (msg: FromWorker, body, encoding) => {
      switch (msg.t) {
        case 'response':
          answer({ kind: 'response', head: msg.response, body: toBuffer(body, encoding), report: msg.report ?? null });
          if (msg.report !== undefined) end(msg.report);
          return;
        case 'end': {
          const error = msg.error === undefined ? new PlatformError('PlatformRuntimeGuestError', 'The app did not answer') : new PlatformError(msg.error.tag, msg.error.message, { fields: msg.error.fields ?? {} });
          answer({ kind: 'error', error, report: msg.report });
          return end(msg.report);
        }
        case 'egress':
          if (!calledOut) channel({ t: 'local', id, vid: spec.vid, deadlineAt: deps.run.now() + budget.deadlineMs });
          calledOut = true;
          return channel(msg, body, encoding);
        case 'profile': return;
        default: return channel(msg, body, encoding);
      }
    };
    const { text, kind } = guestBody(input.request.body);
    const client = input.client;
    const base = deps.run.journal;
    const journal = client === undefined ? base : { ...base, enter(seq: number): void { deps.entering(client); base.enter(seq); } };
    deps.running.set(id, runRequest({ ...deps.run, send, journal }, spec, job, text, kind, () => deps.running.delete(id)));
  });

  return {
    nextRequestId(): string {
      return `req_${deps.setup.idPrefix}${(++n).toString(36)}`;
    },
    run(input: RunInput, requestId: string): Promise<RunResult> {
      const ticket = input.source === undefined ? undefined : deps.tickets.get(input.source);
      const spec = ticket?.vid === null || ticket === undefined ? undefined : deps.versions.get(ticket.vid);
      return spec === undefined ? pass(input, requestId) : local(input, requestId, spec);
    },
    /** Sends the ends not sent yet. */
    flushEnds,
    /** The supervisor's answer to a passed request. */
    passed(msg: Extract<ToWorker, { t: 'passed' }>, body: FrameBody): void {
      const resolve = passed.get(msg.id);
      if (resolve === undefined) return;
      passed.delete(msg.id);
      if ('head' in msg) return resolve({ kind: 'response', head: msg.head, body, report: null });
      resolve({ kind: 'error', error: new PlatformError(msg.error.tag, msg.error.message, { fields: msg.error.fields ?? {} }), report: null });
    },
  };
}

export type LocalRuns = ReturnType<typeof createLocalRuns>;
