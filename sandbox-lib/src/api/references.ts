/**
 * @module api/references
 * `PUT /v0/references` (push reference fields; ours beyond the named `kind`, `externalId`,
 * `fields`, `version`) and `POST /v0/references/revalidate` (ask for a new resolve).
 */
import { z } from 'zod';
import { LIMITS } from '../limits/index.ts';
import { ReferenceKindSchema } from '../manifest/model/schemas.ts';
import { ActionTableRequestSchema, BlockTreeSchema, TimestampSchema, VersionSchema, text } from '../wire/primitives.ts';

const E = LIMITS.endpoints;
const ExternalIdSchema = z.string().min(1).max(E.searchExternalIdMax);

/** The fields of a granted resolution an app may push; at least one. */
export const ReferenceFieldsSchema = z.strictObject({
  title: text(E.searchTitleMax, 1).optional(),
  subtitle: text(E.searchSubtitleMax).nullable().optional(),
  icon: z.string().min(1).max(LIMITS.references.urlLength).nullable().optional(),
  status: z.strictObject({ state: z.string().min(1).max(64), label: text(LIMITS.text.statusLabel, 1) }).nullable().optional(),
  summary: text(LIMITS.blockTree.summary).optional(),
  visibility: z.enum(['public', 'restricted']).optional(),
  updatedAt: TimestampSchema.optional(),
  block: z.strictObject({ tree: BlockTreeSchema, actions: ActionTableRequestSchema }).nullable().optional(),
}).refine((fields) => Object.values(fields).some((value) => value !== undefined), { message: 'Push at least one field', path: [] });

/** `version` orders pushes: a push whose version is not above the stored one is not applied. */
export const ReferencePushRequestSchema = z.strictObject({ kind: ReferenceKindSchema, externalId: ExternalIdSchema, fields: ReferenceFieldsSchema, version: VersionSchema });
export const ReferencePushResponseSchema = z.looseObject({ applied: z.boolean(), version: VersionSchema });

export const ReferenceRevalidateRequestSchema = z.strictObject({ kind: ReferenceKindSchema, externalId: ExternalIdSchema });

export type ReferencePushRequest = z.input<typeof ReferencePushRequestSchema>;
