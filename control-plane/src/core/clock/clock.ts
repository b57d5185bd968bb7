/**
 * @module core/clock/clock
 * Time as a dependency. Product code asks a `Clock` for the time instead of calling `Date.now()`, so
 * tests can move time (token expiry, windows, backoff) without sleeping.
 */

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

/**
 * A clock that only moves when told to.
 *
 * @example
 * const clock = createManualClock();
 * clock.advance(60_000); // one minute later
 */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      if (ms < 0) throw new RangeError('a clock does not go back');
      now += ms;
    },
  };
}
