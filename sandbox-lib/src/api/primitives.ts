/**
 * @module api/primitives
 * Wire primitives shared by the `/v0` shapes and the delivery shapes: texts measured as people see
 * them, `https://` URLs, ids, timestamps, JSON objects under a byte cap, documents and block trees.
 */
import { z } from 'zod';
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

/** A string of `min` to `max` characters as people see them. */
export function text(max: number, min = 0) {
  return z.string().refine((value) => {
    // Cheap bounds first: graphemes never outnumber UTF-16 code units, and a grapheme is at least one.
    if (value.length < min) return false;
    if (value.length <= max) return true;
    const length = graphemeLength(value);
    return length >= min && length <= max;
  }, min > 0 ? `Must be ${min} to ${max} characters` : `Keep this to ${max} characters or fewer`);
}

/** A label: visible text (not only spaces) of at most `max` characters. */
export function label(max: number) {
  return text(max, 1).refine((value) => value.trim().length > 0, 'Labels need visible text');
}

/** An absolute `https://` URL of at most 2,048 characters. */
export const HttpsUrlSchema = z.string().max(LIMITS.references.urlLength).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}, 'Must be an https:// URL');

/** An opaque identifier issued by the service. */
export const IdSchema = z.string().min(1).max(200);

/** An ISO 8601 date-time with a zone (`Z` or an offset). */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const VersionSchema = z.int().min(0);

/** A JSON object whose compact serialization is at most `maxBytes`. */
export function jsonObject(maxBytes: number) {
  return z.record(z.string(), z.unknown()).refine(
    (value) => jsonSize(value, { maxBytes, maxDepth: LIMITS.manifest.manifestSchemaDepth }) !== null,
    `Must be JSON of at most ${maxBytes} bytes, nested at most ${LIMITS.manifest.manifestSchemaDepth} levels`,
  );
}

/**
 * A structured document (the editor's format: `{ type: 'doc', content: [...] }`). Its nodes are
 * checked by the service against the editor schema, not here.
 */
export const DocumentSchema = z.looseObject({ type: z.string().min(1) });

/**
 * A block UI tree (root `uiBlock`). The catalog validator (`validateTree`) checks it semantically;
 * here only its outer shape.
 */
export const BlockTreeSchema = z.looseObject({ type: z.string().min(1) });

/** An action reference inside one tree revision (`a0`, `a1`, ...). */
export const ActionRefSchema = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'Action references are 1 to 32 characters from A-Z, a-z, 0-9, _ and -');

export const ActionNameSchema = z.string().regex(LIMITS.identifiers.actionName, 'Action names are 1 to 64 characters from a-z, 0-9, _, . and -');

/** Arguments stored with an action reference: JSON of at most 2 KB. */
export const ActionArgsSchema = jsonObject(LIMITS.actions.argsBytesPerButton);

/** The action table sent with a tree: reference to `{ name, args? }`, read from an app's answer. */
export const ActionTableSchema = z.record(ActionRefSchema, z.looseObject({ name: ActionNameSchema, args: ActionArgsSchema.optional() }));
/** The same table inside a `/v0` request body: unknown fields rejected. */
export const ActionTableRequestSchema = z.record(ActionRefSchema, z.strictObject({ name: ActionNameSchema, args: ActionArgsSchema.optional() }));

export const BlockPropsSchema = jsonObject(LIMITS.blockData.propsBytes);
export const BlockStateSchema = jsonObject(LIMITS.blockData.stateBytes);
