/**
 * @module capabilities/url
 * WHATWG URL parsing for the guest's URL class, by Node's own parser: exact, and small enough to
 * run synchronously. Answers are arrays in the order of URL_PARTS, or null for an invalid URL.
 */
import { URL_PARTS } from '../shared/bridge.ts';
import { expect, isString, type HostCapability } from './types.ts';

const MAX_URL_CHARS = 64 * 1024;
const SETTABLE = new Set(['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']);

function text(value: unknown, what: string): string {
  const s = expect(value, isString, what);
  if (s.length > MAX_URL_CHARS) throw new TypeError(`${what} is longer than ${MAX_URL_CHARS} characters`);
  return s;
}

function parts(url: URL): string[] {
  return URL_PARTS.map((name) => url[name]);
}

export const urlCapability: HostCapability = {
  name: 'url',
  sync: {
    parse(_scope, [input, base]) {
      const parsed = URL.parse(text(input, 'URL'), base === undefined ? undefined : text(base, 'base URL'));
      return parsed === null ? null : parts(parsed);
    },
    set(_scope, [href, part, value]) {
      const name = text(part, 'URL part');
      if (!SETTABLE.has(name)) throw new TypeError(`Cannot set URL.${name}`);
      const url = URL.parse(text(href, 'URL'));
      if (url === null) return null;
      (url as unknown as Record<string, string>)[name] = text(value, `URL.${name}`);
      return parts(url);
    },
  },
};
