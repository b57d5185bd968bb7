/**
 * @module capabilities/console
 * Guest console lines go to the app's log (capped per request by the request runner).
 */
import { GUEST_LIMITS } from '../shared/bridge.ts';
import { expect, isString, type HostCapability, type LogLevel } from './types.ts';

const LEVELS = new Set<string>(['log', 'info', 'warn', 'error', 'debug']);

export const consoleCapability: HostCapability = {
  name: 'console',
  post: {
    line(scope, [level, text]) {
      const l = LEVELS.has(level as string) ? (level as LogLevel) : 'log';
      const t = expect(text, isString, 'console text');
      scope.log(l, t.length > GUEST_LIMITS.logLineChars ? `${t.slice(0, GUEST_LIMITS.logLineChars)}…` : t);
    },
  },
};
