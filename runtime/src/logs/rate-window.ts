/**
 * @module logs/rate-window
 * Each app may ship `linesPerSecond` lines a second from this node: past it its lines are dropped
 * and, at the next flush, one `warn` line of the app says how many (a marker).
 */
import type { AppLogInput } from './app-log.ts';

interface Window {
  second: number;
  shipped: number;
  dropped: number;
  /** The last dropped line: the marker takes its version and kind. */
  last: AppLogInput | null;
}

export interface RateWindows {
  /** Whether the app of `line` may ship it in `second` (counted when it may not). */
  admit(line: AppLogInput, second: number): boolean;
  /** One `warn` line per app that dropped lines since the last call; forgets apps quiet for a minute. */
  markers(): AppLogInput[];
  /** Apps with a window (a flush is due while any has one: its marker may be pending). */
  readonly size: number;
}

export function createRateWindows(linesPerSecond: number, now: () => number, dropped?: (n: number) => void): RateWindows {
  const windows = new Map<string, Window>();
  return {
    admit(line, second) {
      let w = windows.get(line.appId);
      if (w === undefined) {
        w = { second, shipped: 0, dropped: 0, last: null };
        windows.set(line.appId, w);
      } else if (w.second !== second) {
        w.second = second;
        w.shipped = 0;
      }
      if (w.shipped >= linesPerSecond) {
        w.dropped++;
        w.last = line;
        return false;
      }
      w.shipped++;
      return true;
    },
    markers() {
      const at = new Date(now()).toISOString();
      const lines: AppLogInput[] = [];
      for (const [appId, w] of windows) {
        if (w.dropped > 0 && w.last !== null) {
          lines.push({
            ...w.last, at, appId, requestId: '', deliveryId: null, installId: null, level: 'warn', status: 'ok', profile: undefined,
            message: `${w.dropped} log lines of this app were dropped on this node (more than ${linesPerSecond} lines a second)`,
            request: undefined, error: undefined,
          });
          dropped?.(w.dropped);
          w.dropped = 0;
          w.last = null;
        }
        // Forget apps quiet for a minute (nothing left to report), so the map holds only the recently active.
        if (w.second < Math.floor(now() / 1000) - 60) windows.delete(appId);
      }
      return lines;
    },
    get size() { return windows.size; },
  };
}
