/**
 * @module delivery/lean/primitives
 * The wire primitives of `wire/primitives.ts`, as lean checks: ids, timestamps, versions, texts
 * measured as people see them, `https://` URLs, JSON objects under a byte cap, block trees and
 * action tables. The predicates and messages come from `wire/predicates.ts`, as the zod ones do.
 */
import { LIMITS } from '../../limits/index.ts';
import { fitsJson, fitsText, FORMATS, HTTPS_URL_MESSAGE, isHttpsUrl, jsonMessage, textMessage } from '../../wire/predicates.ts';
import { matches, object, optional, record, refine, str, int, type Check } from './check.ts';

/**
 * `z.iso.datetime({ offset: true })` of zod 4, copied: a test compares it with zod's own pattern,
 * so an upgrade that changes it fails there instead of drifting here.
 */
export const DATETIME_PATTERN = /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/;

export const id = str(1, 200);
export const timestamp = matches(DATETIME_PATTERN, 'Invalid ISO datetime');
export const version = int(0);

/** A string of `min` to `max` characters as people see them. */
export const text = (max: number, min = 0): Check => refine(str(), (value: string) => fitsText(value, max, min), textMessage(max, min));

export const httpsUrl = refine(str(0, LIMITS.references.urlLength), isHttpsUrl, HTTPS_URL_MESSAGE);

/** A JSON object whose compact serialization is at most `maxBytes`. */
export const jsonObject = (maxBytes: number): Check => refine(record(), (value) => fitsJson(value, maxBytes), jsonMessage(maxBytes));

/** A document or a block tree: only the outer shape; the service (and `validateTree`) check the rest. */
export const typed = object({ type: str(1) });

export const actionName = matches(FORMATS.actionName.pattern, FORMATS.actionName.message);
export const actionTable = record(
  object({ name: actionName, args: optional(jsonObject(LIMITS.actions.argsBytesPerButton)) }),
  matches(FORMATS.actionRef.pattern, FORMATS.actionRef.message),
);

export const blockProps = jsonObject(LIMITS.blockData.propsBytes);
export const blockState = jsonObject(LIMITS.blockData.stateBytes);
