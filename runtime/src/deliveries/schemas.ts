/**
 * @module deliveries/schemas
 * The internal delivery request (`POST /internal/v1/deliveries`), strict: unknown fields are
 * refused. Documented in docs/runtime.md.
 */
import { LIMITS } from '@platform/sandbox-lib';
import { z } from 'zod';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lower-case hex digits');
const envKey = z.string().regex(LIMITS.identifiers.envVarKey, 'an env var key is a letter or _, then up to 63 letters, digits or _');
const host = z.string().min(1).max(253).regex(/^(\*\.)?[A-Za-z0-9.-]+$/, 'a host name, or *. and a host name');

export const DeliveryRequestSchema = z.strictObject({
  app: z.strictObject({
    id: z.string().min(1).max(200),
    slug: z.string().regex(LIMITS.identifiers.appSlug),
    version: z.number().int().nonnegative(),
  }),
  bundle: z.strictObject({ sha256 }),
  env: z.record(envKey, z.string().max(LIMITS.manifest.envValueBytes)).refine((e) => Object.keys(e).length <= LIMITS.manifest.envVarsPerEnvironment, 'too many env vars').default({}),
  secretEnvKeys: z.array(envKey).max(LIMITS.manifest.envVarsPerEnvironment).default([]),
  target: z.enum(['preview', 'production']),
  egressHosts: z.array(host).max(LIMITS.manifest.outboundHosts).default([]),
  installToken: z.string().min(1).max(8_192).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }),
  signingSecret: z.string().startsWith('whsec_'),
  kind: z.enum(['interactive', 'command', 'lifecycle', 'mcp']),
  /** The delivery envelope (or, for `mcp`, the JSON-RPC message). */
  envelope: z.record(z.string(), z.unknown()),
  /** Extra request headers, `mcp` only (e.g. the per-call token, `mcp-session-id`). */
  headers: z.record(z.string().regex(/^[a-z0-9-]{1,64}$/), z.string().max(8_192)).optional(),
});

export type DeliveryRequest = z.infer<typeof DeliveryRequestSchema>;

export const ManifestRequestSchema = z.strictObject({ sha256 });
