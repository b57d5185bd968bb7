/**
 * @module wire/predicates
 * The predicates behind the wire primitives, without zod: texts measured as people see them,
 * `https://` URLs, JSON objects under a byte cap, and the identifier formats deliveries carry.
 * The zod schemas (`wire/primitives.ts`) and the SDK's lean delivery checks (`delivery/lean/`)
 * use the same functions and words, so the two cannot disagree on what fits.
 */
import { LIMITS } from '../limits/index.ts';
import { jsonSize } from '../json-schema/json-size.ts';

let segmenter: Intl.Segmenter | null | undefined;

/**
 * Length of `text` in characters as people see them (grapheme clusters). Falls back to code points
 * where `Intl.Segmenter` is missing (a bare isolate without ICU).
 * @example graphemeLength('👍🏽ok') // 3
 */
export function graphemeLength(text: string): number {
  if (segmenter === undefined) segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter() : null;
  if (segmenter === null) return Array.from(text).length;
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}

/**
 * True when `value` is `min` to `max` characters as people see them.
 * @example fitsText('👍🏽', 1, 1) // true
 */
export function fitsText(value: string, max: number, min = 0): boolean {
  // Cheap bounds first: graphemes never outnumber UTF-16 code units, and a grapheme is at least one.
  if (value.length < min) return false;
  if (value.length <= max) return true;
  const length = graphemeLength(value);
  return length >= min && length <= max;
}

/** The message of a text outside its bounds (the same words on both sides of the wire). */
export const textMessage = (max: number, min = 0): string => (min > 0 ? `Must be ${min} to ${max} characters` : `Keep this to ${max} characters or fewer`);

/**
 * True for an absolute `https://` URL with a host.
 * @example isHttpsUrl('https://example.com/a') // true; isHttpsUrl('http://example.com') // false
 */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

export const HTTPS_URL_MESSAGE = 'Must be an https:// URL';

/**
 * True for a URL that carries a user name or password (`https://user:pw@host/`). Addresses the
 * platform calls (an app's endpoint, its MCP server) may not: the signature or token is the proof,
 * and a password in a URL is copied wherever the URL is (logs, the Deliveries page, the console).
 * @example hasUserinfo('https://user:pw@example.com/') // true; hasUserinfo('https://example.com/') // false
 */
export function hasUserinfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

export const USERINFO_MESSAGE = 'The URL may not carry a user name or password (user:password@): deliveries are signed, and a password in a URL ends up in logs';

/**
 * True when `value`'s compact JSON is at most `maxBytes` and nested at most the manifest's depth.
 * @example fitsJson({ a: 1 }, 2048) // true
 */
export function fitsJson(value: unknown, maxBytes: number): boolean {
  return jsonSize(value, { maxBytes, maxDepth: LIMITS.manifest.manifestSchemaDepth }) !== null;
}

export const jsonMessage = (maxBytes: number): string =>
  `Must be JSON of at most ${maxBytes} bytes, nested at most ${LIMITS.manifest.manifestSchemaDepth} levels`;

/** Identifier formats read in deliveries: the pattern and the message of a value that does not match. */
export const FORMATS = {
  /** An action reference inside one tree revision (`a0`, `a1`, ...). */
  actionRef: { pattern: /^[A-Za-z0-9_-]{1,32}$/, message: 'Action references are 1 to 32 characters from A-Z, a-z, 0-9, _ and -' },
  actionName: { pattern: LIMITS.identifiers.actionName, message: 'Action names are 1 to 64 characters from a-z, 0-9, _, . and -' },
  appSlug: { pattern: LIMITS.identifiers.appSlug, message: 'App slugs are 3 to 32 characters from a-z, 0-9 and -' },
} as const;
