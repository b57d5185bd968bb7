/**
 * @module cli/relay-client
 * The CLI side of the development relay (`delivery/relay.ts`): a WebSocket to the service that
 * passes each delivery to the app on localhost, exactly as signed, and sends the app's answer
 * back. It reconnects after a drop (1 s, doubling to 30 s) until stopped; a newer `platform dev`
 * for the same app replaces it (close code 4000) and it stops.
 */
import WebSocket from 'ws';
import { RelayServerMessageSchema, type RelayClientMessage, type RelayDelivery, type RelayReady } from '@platform/sdk';

/** The largest answer passed back (the service reads at most 1 MB of an app's answer). */
const MAX_ANSWER_BYTES = 1024 * 1024;
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
export const REPLACED = 4000;

export interface RelayedDelivery {
  delivery: RelayDelivery;
  /** The app's status, or null when it could not be reached. */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface RelayClientOptions {
  /** `ws://` or `wss://` URL of `/v0/apps/{app_id}/relay`. */
  url: string;
  authorization: string;
  /** Where deliveries go: the app's delivery URL on localhost (ignored when `handle` is given). */
  target: string;
  /**
   * Runs a delivery instead of posting it to `target` (a hosted app in the local sandbox); resolves
   * with the answer, rejects when the app could not answer.
   */
  handle?(delivery: RelayDelivery): Promise<{ status: number; body: string }>;
  onReady?(ready: RelayReady): void;
  onDelivery?(relayed: RelayedDelivery): void;
  onDisconnect?(info: { code: number; reason: string; retryInMs: number | null }): void;
}

export interface RelayClient {
  /** Resolves with the first `ready` frame (rejects if the service refuses the connection). */
  readonly ready: Promise<RelayReady>;
  stop(): Promise<void>;
}

async function readCapped(res: Response): Promise<string> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error(`the app answered more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Posts one delivery to the app at `target`. */
async function post(target: string, d: RelayDelivery): Promise<{ status: number; body: string }> {
  const res = await fetch(target, { method: 'POST', headers: d.headers, body: d.body, redirect: 'manual', signal: AbortSignal.timeout(d.timeoutMs) });
  return { status: res.status, body: await readCapped(res) };
}

/** Passes one delivery to the app; never throws. */
async function pass(options: RelayClientOptions, d: RelayDelivery): Promise<{ message: RelayClientMessage; status: number | null; error: string | null }> {
  try {
    const { status, body } = await (options.handle === undefined ? post(options.target, d) : options.handle(d));
    return { message: { type: 'answer', requestId: d.requestId, status, body }, status, error: null };
  } catch (err) {
    const error = (err as Error).name === 'TimeoutError' ? `no answer within ${d.timeoutMs} ms` : (err as Error).message;
    return { message: { type: 'failure', requestId: d.requestId, message: error.slice(0, 1_000) }, status: null, error };
  }
}

/**
 * @example
 * const relay = connectRelay({ url: 'ws://localhost:4000/v0/apps/app_1/relay', authorization: 'Bearer platkey_…', target: 'http://localhost:8787/platform' });
 * const { installId } = await relay.ready;
 */
export function connectRelay(options: RelayClientOptions): RelayClient {
  let stopped = false;
  let socket: WebSocket | null = null;
  let retryMs = RECONNECT_MIN_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settleReady: { resolve(r: RelayReady): void; reject(e: Error): void } | null = null;
  const ready = new Promise<RelayReady>((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  // The first connection's outcome is reported through `ready`; later ones only through callbacks.
  ready.catch(() => undefined);

  const open = () => {
    const ws = new WebSocket(options.url, { headers: { authorization: options.authorization }, maxPayload: 4 * 1024 * 1024 });
    socket = ws;
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let message = `the service refused the relay (${res.statusCode})`;
        try {
          message = `${message}: ${(JSON.parse(text) as { message?: string }).message ?? text}`;
        } catch {
          // not JSON: keep the status only
        }
        stopped = true;
        settleReady?.reject(new Error(message));
        settleReady = null;
        ws.terminate();
      });
    });
    ws.on('message', (data) => {
      let parsed;
      try {
        parsed = RelayServerMessageSchema.safeParse(JSON.parse(data.toString()));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const frame = parsed.data;
      if (frame.type === 'ready') {
        retryMs = RECONNECT_MIN_MS;
        options.onReady?.(frame);
        settleReady?.resolve(frame);
        settleReady = null;
        return;
      }
      const started = performance.now();
      void pass(options, frame).then(({ message, status, error }) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
        options.onDelivery?.({ delivery: frame, status, error, durationMs: Math.round(performance.now() - started) });
      });
    });
    ws.on('error', () => undefined);
    ws.on('close', (code, reasonBytes) => {
      const reason = reasonBytes.toString();
      if (code === REPLACED) stopped = true;
      const retryInMs = stopped ? null : retryMs;
      options.onDisconnect?.({ code, reason, retryInMs });
      if (settleReady !== null && stopped) {
        settleReady.reject(new Error(`the relay closed (${code}${reason === '' ? '' : `: ${reason}`})`));
        settleReady = null;
      }
      if (retryInMs !== null) {
        timer = setTimeout(open, retryInMs);
        retryMs = Math.min(RECONNECT_MAX_MS, retryMs * 2);
      }
    });
  };
  open();

  return {
    ready,
    stop() {
      stopped = true;
      clearTimeout(timer);
      const ws = socket;
      if (ws === null || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      return new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000, 'platform dev stopped');
        setTimeout(() => ws.terminate(), 1_000).unref();
      });
    },
  };
}
