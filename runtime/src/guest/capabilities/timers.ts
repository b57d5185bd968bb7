/**
 * @module guest/capabilities/timers
 * setTimeout/setInterval ask the host for a timer; the host fires it as a new entry into the
 * isolate, never after the request's deadline, and forgets all of a request's timers when it ends.
 */
import { GUEST_LIMITS } from '../../shared/bridge.ts';
import { closeOp, hasOp, openOp, postHost } from '../web/bridge.ts';
import { reportError, setTimeoutHook } from '../web/events.ts';
import type { GuestCapability } from './types.ts';

let live = 0;
/** Interval id (the first timer's id) → the op id of its currently armed tick. */
const aliases = new Map<number, number>();

function schedule(fn: () => void, ms: number): number {
  if (live >= GUEST_LIMITS.timers) throw new RangeError(`At most ${GUEST_LIMITS.timers} timers may be pending`);
  const delay = Math.max(0, Math.min(Number(ms) || 0, 2_147_483_647));
  live++;
  const id = openOp(() => {
    live--;
    try { fn(); } catch (err) { reportError(err); }
  });
  postHost('timers', 'set', id, delay);
  return id;
}

function cancel(id: unknown): void {
  if (typeof id !== 'number' || !hasOp(id)) return;
  closeOp(id);
  live--;
  postHost('timers', 'clear', id);
}

/** All timers were dropped by the host at the end of a request. */
export function resetTimers(): void {
  live = 0;
  aliases.clear();
}

export const timersCapability: GuestCapability = {
  name: 'timers',
  install(define) {
    setTimeoutHook((fn, ms) => { schedule(fn, ms); });
    define('setTimeout', (fn: unknown, ms?: number, ...args: unknown[]) => {
      if (typeof fn !== 'function') throw new TypeError('setTimeout: the callback must be a function');
      return schedule(() => fn(...args), ms ?? 0);
    });
    define('clearTimeout', cancel);
    define('setInterval', (fn: unknown, ms?: number, ...args: unknown[]) => {
      if (typeof fn !== 'function') throw new TypeError('setInterval: the callback must be a function');
      // One id for the life of the interval: each tick re-arms under a fresh op and maps it back.
      const holder = { current: 0 };
      const tick = (): void => {
        holder.current = schedule(tick, ms ?? 0);
        aliases.set(first, holder.current);
        fn(...args);
      };
      const first = schedule(tick, ms ?? 0);
      holder.current = first;
      aliases.set(first, first);
      return first;
    });
    define('clearInterval', (id: unknown) => {
      if (typeof id !== 'number') return;
      cancel(aliases.get(id) ?? id);
      aliases.delete(id);
    });
    define('queueMicrotask', (fn: unknown) => {
      if (typeof fn !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
      Promise.resolve().then(() => fn()).catch(reportError);
    });
  },
};
