/**
 * @module api/search
 * `PUT /v0/search/objects` (spec shape) and `DELETE /v0/search/objects` (ours: a JSON body naming
 * the object, like the PUT).
 */
import { z } from 'zod';
import { utf8Length } from '../json-schema/json-size.ts';
import { LIMITS } from '../limits/index.ts';
import { ReferenceKindSchema } from '../manifest/model/schemas.ts';
import { HttpsUrlSchema, IdSchema, TimestampSchema, text } from '../wire/primitives.ts';

const E = LIMITS.endpoints;

const visibility = (object: typeof z.strictObject | typeof z.looseObject) => z.union([
  z.literal('workspace'),
  object({ circleIds: z.array(IdSchema).min(E.searchCircleIdsMin).max(E.searchCircleIdsMax) }),
]);

// Characters as people see them (the spec's "1 to 200 characters"), and at most 4 bytes each on
// average: the id is part of the stored object's key, whose index takes only so many bytes.
const EXTERNAL_ID_BYTES = E.searchExternalIdMax * 4;
const ExternalIdSchema = text(E.searchExternalIdMax, 1)
  .refine((value) => utf8Length(value) <= EXTERNAL_ID_BYTES, `Keep this to ${EXTERNAL_ID_BYTES} bytes or fewer`);

export const SearchObjectPutRequestSchema = z.strictObject({
  kind: ReferenceKindSchema,
  externalId: ExternalIdSchema,
  title: text(E.searchTitleMax, 1),
  url: HttpsUrlSchema,
  subtitle: text(E.searchSubtitleMax).optional(),
  body: text(E.searchBodyMax).optional(),
  updatedAt: TimestampSchema,
  visibility: visibility(z.strictObject),
});

/** The search object as stored (spec "Search object"). */
export const SearchObjectSchema = z.looseObject({
  kind: z.string().min(1),
  externalId: z.string().min(1),
  title: z.string(),
  url: z.string().min(1),
  subtitle: z.string().optional(),
  updatedAt: TimestampSchema,
  visibility: visibility(z.looseObject),
});

/** The stored object plus `applied` (false when a newer copy was kept). */
export const SearchObjectPutResponseSchema = SearchObjectSchema.extend({ applied: z.boolean() });

export const SearchObjectDeleteRequestSchema = z.strictObject({ kind: ReferenceKindSchema, externalId: ExternalIdSchema });
/** `deleted` is false when no such object was stored. */
export const SearchObjectDeleteResponseSchema = z.looseObject({ deleted: z.boolean() });

export type SearchObjectPutRequest = z.input<typeof SearchObjectPutRequestSchema>;
export type SearchObject = z.infer<typeof SearchObjectSchema>;
