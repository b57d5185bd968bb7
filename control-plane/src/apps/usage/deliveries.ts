/**
 * @module apps/usage/deliveries
 * Counts every delivery attempt the control plane makes (events, clicks, schedules, queue
 * messages, replays: all go through the one pipeline's target) by result, and queue messages
 * delivered: a 2xx answer succeeded; any other answer, a timeout or no answer failed. Wraps the
 * target (typed by shape, so this area needs nothing of the deliveries area's); the count is an
 * addition in memory (apps/usage/recorder.ts), no round trip.
 */
import type { UsageRecorder } from './recorder.ts';

interface Sent { type: string; app: { id: string }; install: { id: string } }
interface Answer { ok: boolean; status?: number }

/** The queue's delivery type (sandbox-lib's `queue.message`). */
const QUEUE_MESSAGE = 'queue.message';

export function countedTarget<D extends Sent, O extends Answer>(target: { send(d: D): Promise<O> }, usage: UsageRecorder | undefined): { send(d: D): Promise<O> } {
  if (usage === undefined) return target;
  return {
    async send(d) {
      const outcome = await target.send(d);
      const ok = outcome.ok && outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
      usage.add(d.app.id, d.install.id, ok
        ? (d.type === QUEUE_MESSAGE ? { deliveriesSucceeded: 1, queueDelivered: 1 } : { deliveriesSucceeded: 1 })
        : { deliveriesFailed: 1 });
      return outcome;
    },
  };
}
