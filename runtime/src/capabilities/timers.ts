/**
 * @module capabilities/timers
 * setTimeout/clearTimeout: the request runner keeps the host timers, never fires one after the
 * request's deadline, and clears them all when the request ends.
 */
import { expect, isInt, type HostCapability } from './types.ts';

export const timersCapability: HostCapability = {
  name: 'timers',
  post: {
    set(scope, [id, delay]) {
      scope.setTimer(expect(id, isInt, 'timer id'), Math.max(0, Math.min(expect(delay, (v): v is number => typeof v === 'number' && Number.isFinite(v), 'timer delay'), 2_147_483_647)));
    },
    clear(scope, [id]) {
      scope.clearTimer(expect(id, isInt, 'timer id'));
    },
  },
};
