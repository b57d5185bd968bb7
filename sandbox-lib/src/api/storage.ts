/**
 * @module api/storage
 * App storage, our extension of the spec (docs/decisions/storage.md): a key-value store per install
 * under `/v0/storage/…`. Keys are strings ordered by their UTF-8 bytes; values are JSON; every
 * entry carries the versionstamp of the commit that last wrote it, and a commit applies its checks
 * and mutations all or nothing.
 *
 * The shapes here check structure only. Sizes and counts (`LIMITS.storage`) are checked by the
 * service, so that each limit answers its own `PlatformAppStorageLimitExceededError` naming the
 * limit, rather than a schema issue.
 */
import { z } from 'zod';

/** A key: a non-empty string (at most 512 UTF-8 bytes, checked by the service). */
export const StorageKeySchema = z.string().min(1);

/**
 * A versionstamp: 20 hexadecimal digits, increasing with every commit of the service, so that two
 * versionstamps of one key compare as strings in the order they were written.
 */
export const VersionstampSchema = z.string().regex(/^[0-9a-f]{20}$/, 'A versionstamp is 20 lowercase hexadecimal digits');

/** One entry as read; an absent key reads as `value: null, versionstamp: null`. */
export const StorageEntrySchema = z.looseObject({
  key: z.string(),
  value: z.unknown(),
  versionstamp: VersionstampSchema.nullable(),
});

export const StorageGetRequestSchema = z.strictObject({ keys: z.array(StorageKeySchema).min(1) });
export const StorageGetResponseSchema = z.looseObject({ entries: z.array(StorageEntrySchema) });

/**
 * A list: by `prefix`, or by the range `start` (inclusive) to `end` (exclusive), or both (the range
 * within the prefix); in key order, or reversed. `cursor` continues a previous page.
 */
export const StorageListRequestSchema = z.strictObject({
  prefix: z.string().optional(),
  start: StorageKeySchema.optional(),
  end: StorageKeySchema.optional(),
  cursor: z.string().min(1).max(2_048).optional(),
  limit: z.int().min(1).optional(),
  reverse: z.boolean().optional(),
});
export const StorageListResponseSchema = z.looseObject({
  entries: z.array(StorageEntrySchema.extend({ versionstamp: VersionstampSchema })),
  cursor: z.string().nullable(),
});

/** A check: the key is unchanged since `versionstamp` (null: the key does not exist). */
export const StorageCheckSchema = z.strictObject({ key: StorageKeySchema, versionstamp: VersionstampSchema.nullable() });

/** `expireIn`: milliseconds after the commit when the entry stops being read (and is later removed). */
const SetMutation = z.strictObject({ type: z.literal('set'), key: StorageKeySchema, value: z.unknown().refine((v) => v !== undefined, 'A value is required'), expireIn: z.int().min(1).optional() });
const DeleteMutation = z.strictObject({ type: z.literal('delete'), key: StorageKeySchema });
/** Adds `value` to the number at `key` (an absent key counts as 0). */
const SumMutation = z.strictObject({ type: z.literal('sum'), key: StorageKeySchema, value: z.number() });

export const StorageMutationSchema = z.discriminatedUnion('type', [SetMutation, DeleteMutation, SumMutation]);

export const StorageCommitRequestSchema = z.strictObject({
  checks: z.array(StorageCheckSchema).optional(),
  mutations: z.array(StorageMutationSchema),
});
export const StorageCommitResponseSchema = z.looseObject({ ok: z.literal(true), versionstamp: VersionstampSchema });

export type StorageEntry = z.output<typeof StorageEntrySchema>;
export type StorageCheck = z.input<typeof StorageCheckSchema>;
export type StorageMutation = z.input<typeof StorageMutationSchema>;
export type StorageListRequest = z.input<typeof StorageListRequestSchema>;
export type StorageCommitRequest = z.input<typeof StorageCommitRequestSchema>;
