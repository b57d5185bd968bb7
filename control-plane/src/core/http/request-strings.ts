/**
 * @module core/http/request-strings
 * Strings a request may not carry anywhere: ill-formed Unicode (a lone surrogate, which JSON's
 * `\ud800` escape or a CESU-style `%ED%A0%80` in a URL can smuggle in) and NUL (`\u0000`, which
 * Postgres text refuses, so it would otherwise surface as a 500 deep in a store). Checked once, where
 * requests are validated (core/http/api.ts for path and query, core/http/read-json.ts for bodies),
 * before any schema or handler sees the value; each refusal is a 400 whose `path` names the string.
 */
import { invalidRequest, type RequestIssue } from '@platform/sdk';

type Path = Array<string | number>;

// In a `u` regex a well-formed pair is one code point, so `\p{Cs}` matches lone surrogates only.
const LONE_SURROGATE = /\p{Cs}/u;

/** The problem with one string, if any. */
export function stringProblem(value: string): Pick<RequestIssue, 'message' | 'code'> | null {
  if (value.includes('\u0000')) return { message: 'NUL characters (\\u0000) are not allowed', code: 'nul_character' };
  if (LONE_SURROGATE.test(value)) return { message: 'Not well-formed Unicode (a lone surrogate)', code: 'ill_formed_unicode' };
  return null;
}

function refuse(path: Path, problem: Pick<RequestIssue, 'message' | 'code'>): never {
  throw invalidRequest([{ path, ...problem }]);
}

/** A place in a JSON value: its parent and its key there; the path is built only for a refusal. */
interface Place {
  parent: Place | null;
  key: string | number | null;
}

function pathOf(place: Place): Path {
  const path: Path = [];
  for (let p: Place | null = place; p !== null && p.key !== null; p = p.parent) path.push(p.key);
  return path.reverse();
}

/**
 * Throws the 400 for the first bad string in a parsed JSON value, keys included. Iterative, and
 * linear in the value's size: a tree may be tens of thousands of levels deep (the tree checker's
 * bodies), so paths are not copied on the way down. Returns how many keys the value holds, all
 * objects together, counted on the same walk for the duplicate-key check (core/http/duplicate-keys.ts).
 * @example assertCleanJson({ name: 'a\u0000b' }) // throws, path ['name']
 */
export function assertCleanJson(value: unknown): number {
  let keys = 0;
  const root: Place = { parent: null, key: null };
  const stack: Array<{ value: unknown; place: Place }> = [{ value, place: root }];
  while (stack.length > 0) {
    const { value: v, place } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem !== null) refuse(pathOf(place), problem);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], place: { parent: place, key: i } });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      keys += entries.length;
      for (const [key] of entries) {
        const problem = stringProblem(key);
        if (problem !== null) refuse(pathOf({ parent: place, key }), problem);
      }
      // Pushed last to first, so the first bad string in document order is the one named.
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], place: { parent: place, key: entries[i]![0] } });
    }
  }
  return keys;
}

/** Whether a raw (still percent-encoded) URL component decodes to UTF-8 at all. */
function decodes(raw: string): boolean {
  try {
    decodeURIComponent(raw.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws the 400 for a bad path parameter or query parameter. The raw URL is checked too: a
 * percent-encoding that is not UTF-8 (`%ED%A0%80` is a lone surrogate's) is left undecoded by the
 * router, so it would otherwise pass as plain ASCII.
 * @example assertCleanUrl(c.req.url, c.req.param(), c.req.queries())
 */
export function assertCleanUrl(rawUrl: string, params: Record<string, string>, queries: Record<string, string[]>): void {
  // Most URLs carry no percent-encoding at all: no parsing for them (this runs on every request).
  const url = rawUrl.includes('%') ? new URL(rawUrl) : null;
  for (const segment of url === null ? [] : url.pathname.split('/')) {
    if (!decodes(segment)) refuse([], { message: `The path segment "${segment.slice(0, 100)}" is not percent-encoded UTF-8`, code: 'invalid_encoding' });
  }
  for (const pair of url === null ? [] : url.search.slice(1).split('&')) {
    const [key = '', value = ''] = pair.split('=', 2);
    if (!decodes(key) || !decodes(value)) refuse([decodes(key) ? decodeURIComponent(key.replace(/\+/g, ' ')) : key], { message: 'A query parameter is not percent-encoded UTF-8', code: 'invalid_encoding' });
  }
  for (const [name, value] of Object.entries(params)) {
    const problem = stringProblem(value);
    if (problem !== null) refuse([name], problem);
  }
  for (const [name, values] of Object.entries(queries)) {
    const keyProblem = stringProblem(name);
    if (keyProblem !== null) refuse([name], keyProblem);
    for (const value of values) {
      const problem = stringProblem(value);
      if (problem !== null) refuse([name], problem);
    }
  }
}
