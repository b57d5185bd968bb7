/**
 * @module wire/primitives
 * Wire primitives shared by the `/v0` shapes and the delivery shapes: texts measured as people see
 * them, `https://` URLs, ids, timestamps, JSON objects under a byte cap, documents and block trees.
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { nameProblem } from '../names/index.ts';
import { fitsJson, fitsText, FORMATS, HTTPS_URL_MESSAGE, isHttpsUrl, jsonMessage, textMessage } from './predicates.ts';

export { graphemeLength } from './predicates.ts';

/** A string of `min` to `max` characters as people see them. */
export function text(max: number, min = 0) {
  return z.string().refine((value) => fitsText(value, max, min), textMessage(max, min));
}

/** A label: visible text (not only spaces) of at most `max` characters. */
export function label(max: number) {
  return text(max, 1).refine((value) => value.trim().length > 0, 'Labels need visible text');
}

/**
 * A name people see (an app's, a stream event's persona): a label whose characters pass the one rule
 * for names (`nameProblem`: no control, format or invisible characters but what scripts and emoji
 * need, no space at an edge).
 */
export function nameLabel(max: number) {
  return label(max).superRefine((value, ctx) => {
    const problem = nameProblem(value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** An absolute `https://` URL of at most 2,048 characters. */
export const HttpsUrlSchema = z.string().max(LIMITS.references.urlLength).refine(isHttpsUrl, HTTPS_URL_MESSAGE);

/** An opaque identifier issued by the service. */
export const IdSchema = z.string().min(1).max(200);

/** An ISO 8601 date-time with a zone (`Z` or an offset). */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const VersionSchema = z.int().min(0);

/**
 * The largest version or revision the service counts to (app versions, block versions and tree
 * revisions, one change at a time, kept in 32-bit columns). A request that names a larger one
 * names none: it is refused as invalid where it is parsed, not looked up.
 */
export const COUNTER_MAX = 2_147_483_647;

/** A version or revision the service counted: `VersionSchema` within `COUNTER_MAX`. */
export const CountedSchema = z.int().min(0).max(COUNTER_MAX);

/** A JSON object whose compact serialization is at most `maxBytes`. */
export function jsonObject(maxBytes: number) {
  return z.record(z.string(), z.unknown()).refine((value) => fitsJson(value, maxBytes), jsonMessage(maxBytes));
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
export const ActionRefSchema = z.string().regex(FORMATS.actionRef.pattern, FORMATS.actionRef.message);

export const ActionNameSchema = z.string().regex(FORMATS.actionName.pattern, FORMATS.actionName.message);

/** Arguments stored with an action reference: JSON of at most 2 KB. */
export const ActionArgsSchema = jsonObject(LIMITS.actions.argsBytesPerButton);

/** The action table sent with a tree: reference to `{ name, args? }`, read from an app's answer. */
export const ActionTableSchema = z.record(ActionRefSchema, z.looseObject({ name: ActionNameSchema, args: ActionArgsSchema.optional() }));
/** The same table inside a `/v0` request body: unknown fields rejected. */
export const ActionTableRequestSchema = z.record(ActionRefSchema, z.strictObject({ name: ActionNameSchema, args: ActionArgsSchema.optional() }));

export const BlockPropsSchema = jsonObject(LIMITS.blockData.propsBytes);
export const BlockStateSchema = jsonObject(LIMITS.blockData.stateBytes);
