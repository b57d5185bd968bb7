/**
 * @module manifest/validate
 * `validateManifest`: the schema first (a problem there is `reason: invalid`), then each rule in
 * order; the first problem found is the answer, as the spec's error body. Pure and total: any
 * input, however hostile, yields an answer and never an exception.
 */
import type { z } from 'zod';
import { PlatformError } from '../errors/index.ts';
import { ManifestSchema, type Manifest } from './model/schemas.ts';
import { manifestInvalid, type ManifestContext, type ManifestError, type ManifestPath, type ManifestRule } from './model/rule.ts';
import { identityRule } from './rules/identity.ts';
import { endpointRule } from './rules/endpoint.ts';
import { countsRule } from './rules/counts.ts';
import { duplicatesRule } from './rules/duplicates.ts';
import { commandOptionsRule } from './rules/command-options.ts';
import { hostsRule } from './rules/hosts.ts';
import { patternsRule } from './rules/patterns.ts';
import { scopesRule } from './rules/scopes.ts';
import { envRule } from './rules/env.ts';
import { mcpRule } from './rules/mcp.ts';
import { schemasRule } from './rules/schemas.ts';
import { schedulesRule } from './rules/schedules.ts';

/** The rules after the schema, in the order they are checked. */
export const MANIFEST_RULES: readonly ManifestRule[] = [
  identityRule, endpointRule, countsRule, duplicatesRule, commandOptionsRule,
  hostsRule, patternsRule, scopesRule, envRule, mcpRule, schemasRule, schedulesRule,
];

export type ManifestValidation = { valid: true; manifest: Manifest } | { valid: false; error: ManifestError };

/**
 * Validates a manifest against the spec's rules and, with `context`, against what the service knows.
 * @example
 * const result = validateManifest(manifest, { recordedSlug: 'polls', envValues: { API_KEY: '…' } });
 * if (!result.valid) throw manifestErrorToPlatformError(result.error); // 422 with reason and path
 */
export function validateManifest(manifest: unknown, context: ManifestContext = {}): ManifestValidation {
  try {
    const parsed = ManifestSchema.safeParse(manifest);
    if (!parsed.success) return { valid: false, error: schemaError(parsed.error) };
    for (const rule of MANIFEST_RULES) {
      const error = rule(parsed.data, context);
      if (error) return { valid: false, error };
    }
    return { valid: true, manifest: parsed.data };
  } catch {
    // Only exotic objects (getters that throw, proxies) get here; JSON input never does.
    return { valid: false, error: manifestInvalid('invalid', 'The manifest could not be read as JSON', []) };
  }
}

function schemaError(error: z.ZodError): ManifestError {
  const issue = error.issues[0];
  if (!issue) return manifestInvalid('invalid', 'The manifest does not match its schema', []);
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol') as ManifestPath;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return manifestInvalid('invalid', `Unknown field "${key.slice(0, 100)}"`, [...path, key]);
  }
  return manifestInvalid('invalid', issue.message, path);
}

/**
 * The `PlatformError` (422) for a manifest validation failure, for servers to throw.
 * @example throw manifestErrorToPlatformError(result.error);
 */
export function manifestErrorToPlatformError(error: ManifestError): PlatformError {
  return new PlatformError(error._tag, error.message, { path: error.path, fields: { reason: error.reason } });
}
