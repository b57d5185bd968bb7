/**
 * @module deliveries/check
 * The delivery request schema (schemas.ts) as a plain function, for the hot path: one pass over the
 * parsed JSON, no intermediate objects, defaults applied. It answers only yes (the request,
 * normalized) or no; on no, the caller runs the zod schema for the error and its issues, so zod
 * stays the one source of what is valid and how a refusal reads. test/runtime/delivery-check.test.ts
 * checks the two agree on generated inputs.
 */
import { LIMITS } from '@platform/sdk';
import { DELIVERY_LIMITS, EGRESS_HOST, HEADER_NAME, HEADER_VALUE, SHA256, SIGNED_HEADERS, type DeliveryRequest } from './schemas.ts';

type Obj = Record<string, unknown>;

const KEYS = new Set(['app', 'bundle', 'env', 'secretEnvKeys', 'target', 'egressHosts', 'installToken', 'baseUrl', 'kind', 'headers', 'body']);
const KINDS = new Set(['interactive', 'command', 'lifecycle', 'mcp']);
const ENV_KEY = LIMITS.identifiers.envVarKey;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown, min: number, max: number): v is string => typeof v === 'string' && v.length >= min && v.length <= max;

function onlyKeys(o: Obj, allowed: readonly string[]): boolean {
  let n = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    if (!allowed.includes(k)) return false;
    n++;
  }
  return n === allowed.length;
}

const BUNDLE_KEYS = new Set(['sha256', 'sourceMapSha256']);

/** No key outside `allowed` (the optional ones may be absent). */
function knownKeys(o: Obj, allowed: ReadonlySet<string>): boolean {
  for (const k in o) if (Object.hasOwn(o, k) && !allowed.has(k)) return false;
  return true;
}

function stringArray(v: unknown, max: number, pattern: RegExp): boolean {
  if (!Array.isArray(v) || v.length > max) return false;
  for (const s of v) if (typeof s !== 'string' || !pattern.test(s)) return false;
  return true;
}

function record(v: unknown, max: number, key: RegExp, value: (s: unknown) => boolean): boolean {
  if (!isObject(v)) return false;
  let n = 0;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (++n > max || !key.test(k) || !value(v[k])) return false;
  }
  return true;
}

// Base URLs seen valid: the same one or two come with every delivery.
const goodUrls = new Set<string>();

function httpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (goodUrls.has(v)) return true;
  try {
    const p = new URL(v).protocol;
    if (p !== 'http:' && p !== 'https:') return false;
  } catch {
    return false;
  }
  if (goodUrls.size >= 100) goodUrls.clear();
  goodUrls.add(v);
  return true;
}

/** The request when it is valid (defaults applied), else null. */
export function checkDelivery(v: unknown): DeliveryRequest | null {
  if (!isObject(v)) return null;
  for (const k in v) if (Object.hasOwn(v, k) && !KEYS.has(k)) return null;
  const { app, bundle, env, secretEnvKeys, target, egressHosts, installToken, baseUrl, kind, headers, body } = v;
  if (!isObject(app) || !onlyKeys(app, ['id', 'slug', 'version'])) return null;
  if (!isString(app.id, 1, DELIVERY_LIMITS.appIdChars) || typeof app.slug !== 'string' || !LIMITS.identifiers.appSlug.test(app.slug)) return null;
  if (typeof app.version !== 'number' || !Number.isSafeInteger(app.version) || app.version < 0) return null;
  if (!isObject(bundle) || !knownKeys(bundle, BUNDLE_KEYS) || typeof bundle.sha256 !== 'string' || !SHA256.test(bundle.sha256)) return null;
  if (bundle.sourceMapSha256 !== undefined && (typeof bundle.sourceMapSha256 !== 'string' || !SHA256.test(bundle.sourceMapSha256))) return null;
  if (env !== undefined && !record(env, LIMITS.manifest.envVarsPerEnvironment, ENV_KEY, (s) => isString(s, 0, LIMITS.manifest.envValueBytes))) return null;
  if (secretEnvKeys !== undefined && !stringArray(secretEnvKeys, LIMITS.manifest.envVarsPerEnvironment, ENV_KEY)) return null;
  if (target !== 'preview' && target !== 'production') return null;
  if (egressHosts !== undefined && !stringArray(egressHosts, LIMITS.manifest.outboundHosts, EGRESS_HOST)) return null;
  if (installToken !== undefined && !isString(installToken, 1, DELIVERY_LIMITS.installTokenChars)) return null;
  if (!httpUrl(baseUrl) || typeof kind !== 'string' || !KINDS.has(kind)) return null;
  if (!record(headers, DELIVERY_LIMITS.headers, HEADER_NAME, (s) => isString(s, 0, DELIVERY_LIMITS.headerValueChars) && HEADER_VALUE.test(s))) return null;
  if (!isString(body, 0, DELIVERY_LIMITS.bodyChars)) return null;
  if (kind !== 'mcp') {
    for (const name of SIGNED_HEADERS) {
      const h = (headers as Obj)[name];
      if (!Object.hasOwn(headers as Obj, name) || h === '') return null;
    }
  }
  return { ...v, env: (env ?? {}) as Record<string, string>, secretEnvKeys: (secretEnvKeys ?? []) as string[], egressHosts: (egressHosts ?? []) as string[] } as DeliveryRequest;
}
