/**
 * @module api/apps
 * Tooling endpoints. Spec shapes: `PUT /v0/apps/dev`, `PUT /v0/apps/{app_id}/manifest`, the JWKS.
 * Ours: the version record, `GET /v0/apps/{app_id}/manifest`, `POST /v0/apps/check/trees`,
 * `POST /v0/apps/installs/{install_id}/access-tokens`.
 *
 * A manifest travels as a JSON object here; its content is judged by `validateManifest`, which
 * answers `422` with a `reason` rather than a `400`, as the spec's error table says.
 */
import { z } from 'zod';
import { RESPONSE } from '../wire/modes.ts';
import { ActionTableRequestSchema, BlockTreeSchema, IdSchema, TimestampSchema } from '../wire/primitives.ts';
import { AppSlugSchema } from '../manifest/model/schemas.ts';

export const MANIFEST_TARGETS = ['preview', 'production'] as const;
export type ManifestTarget = (typeof MANIFEST_TARGETS)[number];

const ManifestBodySchema = z.record(z.string(), z.unknown());

export const DevSyncQuerySchema = z.strictObject({ reveal: z.literal('signing-secret').optional() });
export const DevSyncRequestSchema = z.strictObject({ manifest: ManifestBodySchema });
export const DevSyncResponseSchema = z.looseObject({
  appId: IdSchema,
  slug: AppSlugSchema,
  clientId: z.string().min(1),
  devInstallId: IdSchema,
  signingSecret: z.string().min(1).optional(),
  version: z.int().min(1),
  playgroundUrl: z.string().min(1),
  created: z.boolean(),
});

export const ManifestSyncRequestSchema = z.strictObject({ manifest: ManifestBodySchema, target: z.enum(MANIFEST_TARGETS) });

/**
 * A version record (ours). `created` is false when the manifest equals the latest version's and
 * that version is returned; `added` lists what the version adds over the production version
 * installs run (Versioning rule 8; empty when it does not widen access).
 */
export const AppVersionRecordSchema = z.looseObject({
  appId: IdSchema,
  version: z.int().min(1),
  target: RESPONSE.closed(MANIFEST_TARGETS, 'preview'),
  manifestSha256: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.boolean(),
  createdAt: TimestampSchema,
  added: z.array(z.looseObject({ kind: z.string(), detail: z.string() })),
});

/** `GET /v0/apps/{app_id}/manifest?target=`: without `target`, the published manifest, else the latest preview. */
export const ManifestGetQuerySchema = z.strictObject({ target: z.enum(MANIFEST_TARGETS).optional() });
export const ManifestGetResponseSchema = z.looseObject({
  appId: IdSchema,
  version: z.int().min(1),
  target: RESPONSE.closed(MANIFEST_TARGETS, 'preview'),
  manifest: z.record(z.string(), z.unknown()),
});

export const CheckTreesRequestSchema = z.strictObject({ tree: BlockTreeSchema, actions: ActionTableRequestSchema.optional() });
/** Same answer as `validateTree`: one problem, with the spec's message and a path to the node. */
export const CheckTreesResponseSchema = z.union([
  z.looseObject({ valid: z.literal(true) }),
  z.looseObject({ valid: z.literal(false), message: z.string(), path: z.array(z.union([z.string(), z.number()])) }),
]);

/** Client credentials mint an install token; the body is empty. */
export const AccessTokenRequestSchema = z.strictObject({});
export const AccessTokenResponseSchema = z.looseObject({ token: z.string().min(1), expiresAt: TimestampSchema, scopes: z.array(z.string()).optional() });

export const JwksResponseSchema = z.looseObject({
  keys: z.array(z.looseObject({
    kty: z.literal('EC'), crv: z.literal('P-256'), alg: z.literal('ES256'), use: z.literal('sig'),
    kid: z.string().min(1), x: z.string().min(1), y: z.string().min(1),
  })),
});

export type DevSyncResponse = z.infer<typeof DevSyncResponseSchema>;
export type AppVersionRecord = z.infer<typeof AppVersionRecordSchema>;
export type CheckTreesResponse = z.infer<typeof CheckTreesResponseSchema>;
export type AccessTokenResponse = z.infer<typeof AccessTokenResponseSchema>;
export type Jwks = z.infer<typeof JwksResponseSchema>;
