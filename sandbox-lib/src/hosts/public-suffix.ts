/**
 * @module hosts/public-suffix
 * The public suffix check, apart from the other host helpers: the list (`tldts`) is 130 KB, and an
 * app bundle compares hosts without it.
 */
import { parse } from 'tldts';

/**
 * True when `host` is itself a public suffix (ICANN or private section), such as `co.uk` or
 * `github.io`: something many unrelated owners register names under.
 * @example isPublicSuffix('co.uk') // true
 */
export function isPublicSuffix(host: string): boolean {
  const parsed = parse(host, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain === null;
}
