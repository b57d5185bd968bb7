/**
 * @module deliveries/schemas
 * The internal delivery request (`POST /internal/v1/deliveries`), strict: unknown fields are
 * refused. Documented in docs/runtime.md. The control plane sends a delivery already signed: the
 * Standard Webhooks headers in `headers` and the exact signed bytes in `body` (the envelope without
 * its install token, which comes apart in `installToken` and stays in the supervisor). The node never
 * holds a signing secret. This zod schema is the source of truth; check.ts is its precompiled twin
 * for the hot path (test/runtime/delivery-check.test.ts proves they agree).
 */
import { DELIVERY_HEADERS, LIMITS } from '@platform/sdk';
import { z } from 'zod';

export const DELIVERY_LIMITS = {
  bodyChars: 4 * 1024 * 1024,
  headers: 32,
  headerValueChars: 8_192,
  installTokenChars: 8_192,
  appIdChars: 200,
} as const;

export const HEADER_NAME = /^[a-z0-9-]{1,64}$/;
export const HEADER_VALUE = /^[^\r\n\0]*$/;
export const EGRESS_HOST = /^(\*\.)?[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$/;
export const SHA256 = /^[0-9a-f]{64}$/;

/** Headers a delivery (every kind but `mcp`) must carry. */
export const SIGNED_HEADERS = [DELIVERY_HEADERS.id, DELIVERY_HEADERS.timestamp, DELIVERY_HEADERS.signature, DELIVERY_HEADERS.deliveryClass, DELIVERY_HEADERS.install] as const;

const sha256 = z.string().regex(SHA256, 'a sha256 is 64 lower-case hex digits');
const envKey = z.string().regex(LIMITS.identifiers.envVarKey, 'an env var key is a letter or _, then up to 63 letters, digits or _');
const host = z.string().regex(EGRESS_HOST, 'a host name, or *. and a host name, and an optional :port');

export const DeliveryRequestSchema = z.strictObject({
  app: z.strictObject({
    id: z.string().min(1).max(DELIVERY_LIMITS.appIdChars),
    slug: z.string().regex(LIMITS.identifiers.appSlug),
    version: z.number().int().nonnegative(),
  }),
  bundle: z.strictObject({ sha256, sourceMapSha256: sha256.optional() }),
  env: z.record(envKey, z.string().max(LIMITS.manifest.envValueBytes)).refine((e) => Object.keys(e).length <= LIMITS.manifest.envVarsPerEnvironment, 'too many env vars').default({}),
  secretEnvKeys: z.array(envKey).max(LIMITS.manifest.envVarsPerEnvironment).default([]),
  target: z.enum(['preview', 'production']),
  egressHosts: z.array(host).max(LIMITS.manifest.outboundHosts).default([]),
  installToken: z.string().min(1).max(DELIVERY_LIMITS.installTokenChars).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }),
  kind: z.enum(['interactive', 'command', 'lifecycle', 'mcp']),
  /** Deliveries: the signed Standard Webhooks headers; `mcp`: extra request headers (the per-call token, `mcp-session-id`). */
  headers: z.record(z.string().regex(HEADER_NAME), z.string().max(DELIVERY_LIMITS.headerValueChars).regex(HEADER_VALUE))
    .refine((h) => Object.keys(h).length <= DELIVERY_LIMITS.headers, `at most ${DELIVERY_LIMITS.headers} headers`),
  /** The request body: the signed envelope JSON (deliveries) or the JSON-RPC message (`mcp`). */
  body: z.string().max(DELIVERY_LIMITS.bodyChars),
}).superRefine((value, ctx) => {
  if (value.kind === 'mcp') return;
  for (const name of SIGNED_HEADERS) {
    const v = value.headers[name];
    if (v === undefined || v === '') ctx.addIssue({ code: 'custom', path: ['headers', name], message: `a delivery carries its signed ${name} header` });
  }
});

export type DeliveryRequest = z.infer<typeof DeliveryRequestSchema>;

export const ManifestRequestSchema = z.strictObject({ sha256, sourceMapSha256: sha256.optional() });
/** With the bundle as the body: `?sourceMap=` names its map (pushed first), whose frames a load error then names. */
export const ManifestQuerySchema = z.strictObject({ sourceMap: sha256.optional() });
