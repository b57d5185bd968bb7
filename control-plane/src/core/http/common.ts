/**
 * @module core/http/common
 * Schema pieces every client-API feature uses: bounded visible text, timestamps, ids, pages.
 */
import { z } from 'zod';
import { invalidRequest, nameProblem } from '@platform/sdk';
import { CLIENT_LIMITS } from './client-limits.ts';
import { stringProblem } from './request-strings.ts';
import { graphemeLength, hasVisibleCharacter } from './text.ts';

/**
 * Text a person reads: trimmed, at least one visible character (zero-width and other invisible
 * format characters alone do not count), at most `max` graphemes and a byte cap (a single grapheme
 * can carry any number of combining marks).
 */
export function visibleText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'Needs visible text')
    .refine(hasVisibleCharacter, 'Needs visible text')
    .refine((s) => graphemeLength(s) <= max, `Keep this to ${max} characters or fewer`)
    .refine((s) => Buffer.byteLength(s) <= max * CLIENT_LIMITS.bytesPerGrapheme, 'Too many bytes for this field')
    .meta({ maxLength: max });
}

/** How names are judged, as the OpenAPI documents say it (the rule is @platform/sdk's `nameProblem`). */
const NAME_RULE = `A name of 1 to {max} characters as people see them, stored as sent: no control characters, no space at the start or end, no bidi embeddings, overrides or isolates, no invisible characters but the zero-width joiner and non-joiner between visible characters, variation selectors, a flag's tags and the bidi marks`;

/**
 * A name (of a workspace, member, circle, API key or app): visible text, at most `max` graphemes and
 * the byte cap, under the SDK's one rule for the characters of names (`nameProblem`: no control,
 * format or invisible characters but the joiners, selectors and marks scripts and emoji need, no
 * space at an edge). Not trimmed: a name is stored as sent or refused; see docs/decisions/hardening.md.
 */
export function nameText(max: number) {
  return z
    .string()
    .min(1, 'Needs visible text')
    .refine(hasVisibleCharacter, 'Needs visible text')
    .superRefine((s, ctx) => {
      const problem = nameProblem(s);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    })
    .refine((s) => graphemeLength(s) <= max, `Keep this to ${max} characters or fewer`)
    .refine((s) => Buffer.byteLength(s) <= max * CLIENT_LIMITS.bytesPerGrapheme, 'Too many bytes for this field')
    .meta({ maxLength: max, description: NAME_RULE.replace('{max}', String(max)) });
}

export const Id = z.string().min(1).max(64);
export const Timestamp = z.iso.datetime();

export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(CLIENT_LIMITS.pageMax).default(CLIENT_LIMITS.pageDefault),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.output<typeof PageQuery>;

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export interface Cursor {
  at: Date;
  id: string;
}

/** Keyset cursors: the (created_at, id) of the last item, opaque to clients. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString('base64url');
}

export function decodeCursor(value: string | undefined): Cursor | null {
  if (value === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown[];
    const date = new Date(at as string);
    if (typeof at === 'string' && typeof id === 'string' && stringProblem(id) === null && !Number.isNaN(date.getTime())) return { at: date, id };
  } catch {
    // fall through to the 400 below
  }
  throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
}

/**
 * Cuts a `limit + 1` fetch into a page and the cursor of the next one: the `created_at` of the last
 * item and its key (its id, or what else the list orders by after the time, such as messages' `seq`).
 */
export function toPage<R extends { created_at: Date; id: string }, T>(
  rows: R[], limit: number, map: (row: R) => T, key: (row: R) => string = (row) => row.id,
): { items: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return { items: shown.map(map), nextCursor: more && last ? encodeCursor({ at: last.created_at, id: key(last) }) : null };
}

/** The `seq` a cursor of a list ordered by `(created_at, seq)` carries, or the 400 of a cursor we did not issue. */
export function cursorSeq(cursor: Cursor): string {
  if (!/^\d{1,18}$/.test(cursor.id)) throw invalidRequest([{ path: ['cursor'], message: 'Not a cursor this API issued', code: 'invalid_cursor' }]);
  return cursor.id;
}

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString());
