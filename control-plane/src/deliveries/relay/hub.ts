/**
 * @module deliveries/relay/hub
 * Which process holds the relay of each development install, and how a delivery reaches it.
 * A relay WebSocket lands on one control plane; any replica may need to deliver through it (the
 * outbox worker that claimed the row, the replica a member's click reached). So:
 *
 * - a process holding a relay records `relay:owner:<installId>` = its id in the key-value store
 *   (with a time to live, refreshed while the socket lives);
 * - a delivery for an install whose relay is here goes straight to the socket; one whose relay is
 *   elsewhere is published on that process's channel and the answer comes back on ours;
 * - no owner: not connected (interactive deliveries fail at once, lifecycle ones retry later).
 *
 * A newer connection for the same install replaces the older one.
 */
import { randomBytes } from 'node:crypto';
import type { Kv, Unsubscribe } from '../../core/kv/kv.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { DeliveryOutcome, OutgoingDelivery } from '../targets/target.ts';
import type { RelayConnection } from './connection.ts';

export const PRESENCE_TTL_MS = 60_000;
/** How long a closing socket may take before it is cut. */
const CLOSE_GRACE_MS = 1_000;
/** How long a forwarded delivery may wait beyond its own deadline for the other process's answer. */
const FORWARD_MARGIN_MS = 2_000;

const ownerKey = (installId: string) => `relay:owner:${installId}`;
const requestChannel = (processId: string) => `relay:requests:${processId}`;
const replyChannel = (processId: string) => `relay:replies:${processId}`;

interface Forwarded { requestId: string; from: string; delivery: OutgoingDelivery }
interface ForwardedReply { requestId: string; outcome: (Omit<Extract<DeliveryOutcome, { ok: true }>, 'body'> & { body: string }) | Extract<DeliveryOutcome, { ok: false }> | null }

export interface RelayHub {
  readonly processId: string;
  register(connection: RelayConnection): Promise<void>;
  /** The delivery's outcome, or null when no relay is connected for its install anywhere. */
  deliver(delivery: OutgoingDelivery): Promise<DeliveryOutcome | null>;
  isConnected(installId: string): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const toWire = (o: DeliveryOutcome): ForwardedReply['outcome'] => (o.ok ? { ...o, body: Buffer.from(o.body).toString('base64') } : o);
const fromWire = (o: NonNullable<ForwardedReply['outcome']>): DeliveryOutcome => (o.ok ? { ...o, body: new Uint8Array(Buffer.from(o.body, 'base64')) } : o);

export function createRelayHub(deps: { kv: Kv; logger: Logger }): RelayHub {
  const processId = randomBytes(9).toString('base64url');
  const local = new Map<string, RelayConnection>();
  const waiting = new Map<string, (reply: ForwardedReply['outcome']) => void>();
  const subscriptions: Unsubscribe[] = [];
  let refresher: ReturnType<typeof setInterval> | undefined;

  const claimPresence = async (installId: string) => {
    await deps.kv.del(ownerKey(installId));
    await deps.kv.setIfAbsent(ownerKey(installId), processId, PRESENCE_TTL_MS);
  };

  async function deliverLocally(delivery: OutgoingDelivery): Promise<DeliveryOutcome | null> {
    const connection = local.get(delivery.install.id);
    return connection === undefined ? null : connection.deliver(delivery);
  }

  async function forward(owner: string, delivery: OutgoingDelivery): Promise<DeliveryOutcome | null> {
    const requestId = randomBytes(9).toString('base64url');
    const reply = new Promise<ForwardedReply['outcome'] | 'timeout'>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(requestId);
        resolve('timeout');
      }, delivery.timeoutMs + FORWARD_MARGIN_MS);
      waiting.set(requestId, (outcome) => {
        clearTimeout(timer);
        waiting.delete(requestId);
        resolve(outcome);
      });
    });
    const message: Forwarded = { requestId, from: processId, delivery };
    await deps.kv.publish(requestChannel(owner), JSON.stringify(message));
    const outcome = await reply;
    if (outcome === 'timeout') return { ok: false, failure: 'timeout', message: 'the process holding the relay did not answer', durationMs: delivery.timeoutMs + FORWARD_MARGIN_MS };
    return outcome === null ? null : fromWire(outcome);
  }

  return {
    processId,
    async register(connection) {
      const previous = local.get(connection.installId);
      local.set(connection.installId, connection);
      if (previous !== undefined && previous !== connection) previous.close(4000, 'Another platform dev connected for this app');
      await claimPresence(connection.installId);
      void connection.closed.then(async () => {
        if (local.get(connection.installId) !== connection) return;
        local.delete(connection.installId);
        if ((await deps.kv.get(ownerKey(connection.installId))) === processId) await deps.kv.del(ownerKey(connection.installId));
      }).catch((err: unknown) => deps.logger.warn({ err }, 'relay presence not cleared'));
    },

    async deliver(delivery) {
      const here = await deliverLocally(delivery);
      if (here !== null) return here;
      const owner = await deps.kv.get(ownerKey(delivery.install.id));
      if (owner === null || owner === processId) return null;
      return forward(owner, delivery);
    },

    async isConnected(installId) {
      return local.has(installId) || (await deps.kv.get(ownerKey(installId))) !== null;
    },

    async start() {
      subscriptions.push(await deps.kv.subscribe(requestChannel(processId), (raw) => {
        void (async () => {
          const message = JSON.parse(raw) as Forwarded;
          const outcome = await deliverLocally(message.delivery);
          const reply: ForwardedReply = { requestId: message.requestId, outcome: outcome === null ? null : toWire(outcome) };
          await deps.kv.publish(replyChannel(message.from), JSON.stringify(reply));
        })().catch((err: unknown) => deps.logger.warn({ err }, 'forwarded relay delivery failed'));
      }));
      subscriptions.push(await deps.kv.subscribe(replyChannel(processId), (raw) => {
        const reply = JSON.parse(raw) as ForwardedReply;
        waiting.get(reply.requestId)?.(reply.outcome);
      }));
      refresher = setInterval(() => {
        for (const installId of local.keys()) {
          void deps.kv.get(ownerKey(installId))
            .then((owner) => {
              if (owner === processId || owner === null) return claimPresence(installId);
              // A newer `platform dev` connected to another process: it serves the app now.
              local.get(installId)?.close(4000, 'Another platform dev connected for this app');
              return undefined;
            })
            .catch((err: unknown) => deps.logger.warn({ err }, 'relay presence not refreshed'));
        }
      }, PRESENCE_TTL_MS / 3);
      refresher.unref();
    },

    async stop() {
      clearInterval(refresher);
      const connections = [...local.values()];
      for (const c of connections) c.close(1001, 'The service is stopping');
      await Promise.all(connections.map(async (c) => {
        const cut = setTimeout(() => c.terminate(), CLOSE_GRACE_MS);
        await c.closed;
        clearTimeout(cut);
      }));
      for (const unsubscribe of subscriptions.splice(0)) await unsubscribe();
      for (const resolve of waiting.values()) resolve(null);
    },
  };
}
