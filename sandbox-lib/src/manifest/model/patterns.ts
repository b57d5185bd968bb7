/**
 * @module manifest/model/patterns
 * Reference URL patterns: `https://host/literal/:param/...`.
 *
 * - The host is a lowercase host name, or `*.` plus one for any subdomain of it (not itself).
 * - The path is a sequence of segments, each either literal text (URL path characters,
 *   percent-escapes allowed) or a named parameter `:name` (a letter or `_`, then letters, digits or `_`).
 * - No query, fragment, port or credentials: matching ignores a URL's query and fragment.
 * - A trailing `/` is ignored, in patterns and in URLs.
 */
import { LIMITS } from '../../limits/index.ts';
import { parseHostPattern } from '../../hosts/index.ts';
import type { PatternInvalidReason } from './reasons.ts';

export type PatternSegment = { readonly literal: string } | { readonly param: string };

export interface ReferencePattern {
  readonly host: string;
  readonly wildcard: boolean;
  readonly segments: readonly PatternSegment[];
  readonly params: readonly string[];
}

export type PatternParse = { ok: true; pattern: ReferencePattern } | { ok: false; reason: PatternInvalidReason; message: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]{0,63})$/;
const LITERAL = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;

const bad = (reason: PatternInvalidReason, message: string): PatternParse => ({ ok: false, reason, message });

/**
 * Reads a reference pattern, or says why it is invalid.
 * @example parseReferencePattern('https://example.com/:org/issues/:id')
 * // { ok: true, pattern: { host: 'example.com', wildcard: false, segments: [...], params: ['org', 'id'] } }
 */
export function parseReferencePattern(source: string): PatternParse {
  const limits = LIMITS.references;
  if (source.length > limits.urlLength) return bad('too-long', `Patterns are at most ${limits.urlLength} characters`);
  const scheme = SCHEME.exec(source);
  if (!scheme) return bad('malformed', 'Patterns are absolute URLs: https://host/path');
  if (scheme[1]!.toLowerCase() !== 'https') return bad('not-https', 'Patterns must be https:// URLs');
  const rest = source.slice(scheme[0].length);
  if (/[?#\s]/.test(rest)) return bad('malformed', 'Patterns have no query, fragment or spaces');
  const slash = rest.indexOf('/');
  const hostPart = slash === -1 ? rest : rest.slice(0, slash);
  const host = parseHostPattern(hostPart);
  if (!host) return bad('malformed', `"${hostPart.slice(0, 100)}" is not a lowercase host name (optionally *.host); ports and credentials are not allowed`);
  const raw = slash === -1 ? [] : rest.slice(slash + 1).split('/');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  if (raw.length > limits.pathSegmentsPerPattern) return bad('too-many-segments', `Patterns have at most ${limits.pathSegmentsPerPattern} path segments`);
  const segments: PatternSegment[] = [];
  const params: string[] = [];
  for (const segment of raw) {
    const param = PARAM.exec(segment);
    if (param) {
      if (params.includes(param[1]!)) return bad('malformed', `Parameter :${param[1]} appears twice`);
      params.push(param[1]!);
      segments.push({ param: param[1]! });
    } else if (!segment.startsWith(':') && LITERAL.test(segment)) {
      segments.push({ literal: segment });
    } else {
      return bad('malformed', `"${segment.slice(0, 100)}" is neither literal path text nor a :parameter`);
    }
  }
  if (params.length > limits.namedParametersPerPattern) return bad('too-many-params', `Patterns have at most ${limits.namedParametersPerPattern} named parameters`);
  return { ok: true, pattern: { host: host.host, wildcard: host.wildcard, segments, params } };
}

/**
 * The parameters of `url` under `pattern`, or `null` when it does not match. Query and fragment
 * are ignored; parameter values are percent-decoded and never empty.
 * @example matchReferencePattern(pattern, 'https://example.com/acme/issues/42') // { org: 'acme', id: '42' }
 */
export function matchReferencePattern(pattern: ReferencePattern, url: string): Record<string, string> | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.port !== '' || parsed.username !== '' || parsed.password !== '') return null;
  const host = parsed.hostname;
  if (pattern.wildcard ? !host.endsWith(`.${pattern.host}`) : host !== pattern.host) return null;
  const parts = parsed.pathname.split('/').slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length !== pattern.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = pattern.segments[i]!;
    const part = parts[i]!;
    if ('literal' in segment) {
      if (part !== segment.literal) return null;
      continue;
    }
    try {
      params[segment.param] = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (params[segment.param] === '') return null;
  }
  return params;
}
