/**
 * @module deliveries/relay/connection
 * One `platform dev` WebSocket, seen from the service: send a delivery frame, wait for the
 * matching answer (or failure) frame until the delivery's deadline, and fail every pending
 * delivery when the socket closes. Frames from the CLI are parsed strictly; anything else is
 * ignored (the CLI is the developer's, but the connection is still untrusted input).
 */
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { RelayClientMessageSchema, type RelayServerMessage } from '@platform/sdk';
import type { DeliveryOutcome, OutgoingDelivery } from '../targets/target.ts';

export interface RelayConnection {
  readonly installId: string;
  deliver(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
  close(code?: number, reason?: string): void;
  /** Cuts the socket without the closing handshake. */
  terminate(): void;
  /** Resolves when the socket has closed. */
  readonly closed: Promise<void>;
}

interface Pending {
  resolve(outcome: DeliveryOutcome): void;
  timer: ReturnType<typeof setTimeout>;
  started: number;
  maxResponseBytes: number;
}

const HEARTBEAT_MS = 30_000;

export function createRelayConnection(ws: WebSocket, installId: string): RelayConnection {
  const pending = new Map<string, Pending>();
  let alive = true;
  const elapsed = (p: Pending) => Math.round(performance.now() - p.started);

  const settle = (requestId: string, outcome: (p: Pending) => DeliveryOutcome) => {
    const p = pending.get(requestId);
    if (p === undefined) return;
    pending.delete(requestId);
    clearTimeout(p.timer);
    p.resolve(outcome(p));
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let parsed;
    try {
      parsed = RelayClientMessageSchema.safeParse(JSON.parse(data.toString()));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'answer') {
      settle(message.requestId, (p) => {
        const body = new TextEncoder().encode(message.body);
        return body.byteLength > p.maxResponseBytes
          ? { ok: false, failure: 'too-large', status: message.status, message: `response body is over ${p.maxResponseBytes} bytes`, durationMs: elapsed(p) }
          : { ok: true, status: message.status, body, durationMs: elapsed(p) };
      });
    } else {
      settle(message.requestId, (p) => ({ ok: false, failure: 'network', message: `the relay could not reach the app: ${message.message}`, durationMs: elapsed(p) }));
    }
  });

  // A developer's laptop can vanish without closing the socket: ping, and drop it if no pong.
  ws.on('pong', () => {
    alive = true;
  });
  const heartbeat = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const closed = new Promise<void>((resolve) => {
    ws.once('close', () => {
      clearInterval(heartbeat);
      for (const id of [...pending.keys()]) {
        settle(id, (p) => ({ ok: false, failure: 'relay-not-connected', message: 'the relay disconnected before the app answered', durationMs: elapsed(p) }));
      }
      resolve();
    });
  });

  return {
    installId,
    closed,
    deliver(d) {
      return new Promise<DeliveryOutcome>((resolve) => {
        const requestId = randomBytes(9).toString('base64url');
        const started = performance.now();
        const timer = setTimeout(() => settle(requestId, (p) => ({ ok: false, failure: 'timeout', message: `no answer within ${d.timeoutMs} ms`, durationMs: elapsed(p) })), d.timeoutMs);
        pending.set(requestId, { resolve, timer, started, maxResponseBytes: d.maxResponseBytes });
        const frame: RelayServerMessage = {
          type: 'delivery', requestId, deliveryId: d.id, deliveryClass: d.deliveryClass, eventType: d.type, headers: d.headers, body: d.body, timeoutMs: d.timeoutMs,
          ...(d.installToken == null ? {} : { installToken: d.installToken }),
        };
        ws.send(JSON.stringify(frame), (err) => {
          if (err) settle(requestId, (p) => ({ ok: false, failure: 'relay-not-connected', message: `the relay connection failed: ${err.message}`, durationMs: elapsed(p) }));
        });
      });
    },
    close(code = 1000, reason = '') {
      ws.close(code, reason);
    },
    terminate() {
      ws.terminate();
    },
  };
}
