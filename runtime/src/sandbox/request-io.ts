/**
 * @module sandbox/request-io
 * What a request waits on besides its own computing: the timers and outbound fetches its guest
 * opened. Timers are host timers that enter the guest again when they fire (never armed past the
 * deadline); fetches go to the supervisor, whose answer enters the guest again. All of them end with
 * the request.
 */
import type { RequestScope } from '../capabilities/types.ts';
import type { FromWorker } from '../protocol/messages.ts';
import { toHeaderBlock } from '../shared/bridge.ts';
import type { LogBuffer } from './log-buffer.ts';

const MAX_TIMERS = 1_000;

export interface RequestIo {
  readonly scope: RequestScope;
  /** Forgets a fetch the supervisor answered; false when it was not pending (aborted, or ended). */
  settleFetch(opId: number): boolean;
  /** Cancels every timer and fetch (the request ended). */
  close(): void;
}

export function createRequestIo(deps: {
  requestId: string;
  deadlineAt: number;
  logs: LogBuffer;
  /** Whether the guest is running the request (not its bundle's top level, not ended). */
  active: () => boolean;
  /** Enters the guest with a fired timer. */
  fire: (opId: number) => void;
  send: (msg: FromWorker, body?: Buffer | null) => void;
  now: () => number;
}): RequestIo {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const fetches = new Set<number>();
  const scope: RequestScope = {
    requestId: deps.requestId,
    get startup() { return !deps.active(); },
    log: (level, text, error) => deps.logs.add(level, text, error),
    startFetch(opId, init) {
      if (!deps.active()) return deps.logs.add('error', 'fetch() is not available while the bundle\'s top level runs');
      fetches.add(opId);
      const { body, headers, ...head } = init;
      deps.send({ t: 'egress', id: deps.requestId, opId, ...head, headers: toHeaderBlock(headers) }, body === null ? null : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    },
    abortFetch(opId) {
      if (fetches.delete(opId)) deps.send({ t: 'egress-abort', id: deps.requestId, opId });
    },
    setTimer(opId, delayMs) {
      // A timer due after the deadline could never fire inside this request: it is not armed.
      if (!deps.active() || timers.size >= MAX_TIMERS || deps.now() + delayMs >= deps.deadlineAt) return;
      timers.set(opId, setTimeout(() => {
        timers.delete(opId);
        if (deps.active()) deps.fire(opId);
      }, delayMs));
    },
    clearTimer(opId) {
      clearTimeout(timers.get(opId));
      timers.delete(opId);
    },
  };
  return {
    scope,
    settleFetch: (opId) => fetches.delete(opId),
    close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const opId of fetches) deps.send({ t: 'egress-abort', id: deps.requestId, opId });
      fetches.clear();
    },
  };
}
