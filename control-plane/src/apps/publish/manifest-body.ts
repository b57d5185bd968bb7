/**
 * @module apps/publish/manifest-body
 * How the two endpoints that take a manifest as JSON read their body (`PUT /v0/apps/{app_id}/manifest`
 * and `PUT /v0/apps/dev`). The spec lets a manifest's schemas nest 128 levels, past the request
 * parser's general cap of 64, so these bodies may nest as deep as the deepest place a schema sits
 * (`{ manifest: { blocks: [ { actions: [ { input: … } ] } ] } }`: six levels) plus 128. A body
 * nested deeper than that holds a schema past the limit, and answers as the manifest validator
 * would: `422 PlatformAppManifestInvalidError` reason `schema-too-complex`, not the parser's `400`.
 */
import { LIMITS, manifestErrorToPlatformError, type PlatformError } from '@platform/sdk';

/** Levels above a schema's root at the deepest place one sits in a sync body. */
const SCHEMA_WRAPPING = 6;

/** The `readJson` options of a manifest body (`maxBytes`, `maxDepth`, `tooDeep`). */
export const MANIFEST_BODY = {
  maxBytes: LIMITS.manifest.manifestSchemaBytes * 2,
  maxDepth: LIMITS.manifest.manifestSchemaDepth + SCHEMA_WRAPPING,
  tooDeep: (): PlatformError => manifestErrorToPlatformError({
    _tag: 'PlatformAppManifestInvalidError',
    reason: 'schema-too-complex',
    message: `The manifest nests deeper than its schemas may (${LIMITS.manifest.manifestSchemaDepth} levels)`,
    path: ['manifest'],
  }),
} as const;
