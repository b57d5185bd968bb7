/**
 * @module capabilities/console
 * Guest console lines go to the app's log (capped per request by the request runner), with the
 * error the guest logged, if any, as its name, message and stack text (mapped to the author's
 * sources when the request's lines are handed over: sandbox/log-buffer.ts).
 */
import { GUEST_LIMITS } from '../shared/bridge.ts';
import { expect, isString, type HostCapability, type LogLevel } from './types.ts';

const LEVELS = new Set<string>(['log', 'info', 'warn', 'error', 'debug']);

export const consoleCapability: HostCapability = {
  name: 'console',
  post: {
    line(scope, [level, text, name, message, stack]) {
      const l = LEVELS.has(level as string) ? (level as LogLevel) : 'log';
      const t = expect(text, isString, 'console text');
      const line = t.length > GUEST_LIMITS.logLineChars ? `${t.slice(0, GUEST_LIMITS.logLineChars)}…` : t;
      // An Error among what was logged comes beside the text (guest/capabilities/console.ts).
      if (!isString(name) || !isString(message) || !isString(stack)) return scope.log(l, line);
      scope.log(l, line, {
        name: name.slice(0, 100), message: message.slice(0, GUEST_LIMITS.errorMessageChars), stack: stack.slice(0, GUEST_LIMITS.errorStackChars),
      });
    },
  },
};
