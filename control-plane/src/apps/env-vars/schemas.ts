/**
 * @module apps/env-vars/schemas
 * Wire shapes of environment variables (`/v0/apps/{app_id}/env/{target}`). Secret values are
 * write-only: listing shows their keys, never their values.
 */
import { z } from 'zod';
import { EnvVarKeySchema, EnvVarValueSchema, MANIFEST_TARGETS } from '@platform/sdk';

export const EnvTargetSchema = z.enum(MANIFEST_TARGETS);

export const EnvVarSchema = z
  .object({
    key: z.string(),
    secret: z.boolean(),
    value: z.string().optional().describe('Present for variables that are not secret'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'EnvVar' });
export type EnvVar = z.output<typeof EnvVarSchema>;

export const EnvVarListSchema = z.object({ target: EnvTargetSchema, items: z.array(EnvVarSchema) });

export const EnvVarSetSchema = z.strictObject({
  value: EnvVarValueSchema,
  secret: z.boolean().optional().describe('Default true (write-only). A key the manifest declares secret is always secret.'),
});

export const EnvKeyParamSchema = EnvVarKeySchema;

/** The path parameters of `/v0/apps/{app_id}/env/{target}` and `…/{key}` (the app id is checked by the service). */
export const EnvTargetParams = z.object({ target: EnvTargetSchema });
export const EnvKeyParams = z.object({ target: EnvTargetSchema, key: EnvKeyParamSchema });
