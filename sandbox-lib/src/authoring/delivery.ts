/**
 * @module authoring/delivery
 * The delivery pipeline of `app.fetch`. Order is the security argument: the signing secret comes
 * from the environment and the signature (with its timestamp window) is verified on the raw bytes
 * before anything of the body is parsed; an unverifiable request gets `401` and nothing else runs.
 * Hosted on the platform, the runtime vouches for the delivery instead (`ctx.deliveryId`), and the
 * envelope's id must be the one it vouches for.
 * The envelope's `type` (signed, in the body) decides the class, not the unsigned
 * `platform-delivery` header. Interactive ids are remembered before handling (a replay must not
 * run twice); lifecycle ids after a successful answer (a failed one is retried and must run again).
 */
import { readSigningSecret, verifyDelivery } from '../signing/index.ts';
import { DELIVERY_HEADERS } from '../delivery/headers.ts';
import { INTERACTIVE_TYPES, type InteractiveType } from '../delivery/constants.ts';
import { envelopeCheck, read } from '../delivery/lean/index.ts';
import type { AppEnv, ContextDeps, DeliveryEnvelope, ExecutionContextLike } from './context.ts';
import { ENV_KEYS, readEnv, type EnvDeclaration } from './env.ts';
import { failureResponse } from './failures.ts';
import { jsonResponse, readBody } from './http.ts';
import { handleInteractive } from './interactive.ts';
import { acknowledged, handleLifecycle } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import type { SeenStore, VersionStore } from './stores.ts';
import type { AppTables } from './tables.ts';

export interface DeliveryDeps {
  readonly log: Logger;
  /** Milliseconds since the epoch (the signature timestamp window is checked against it). */
  readonly now: () => number;
  readonly seen: SeenStore | null;
  readonly versions: VersionStore | null;
  readonly fetch?: typeof fetch;
  readonly maxBodyBytes: number;
}

/**
 * True for a delivery: a request carrying both `platform-delivery` and `webhook-signature`.
 * @example if (isDelivery(request)) return app.fetch(request, env);
 */
export function isDelivery(request: Request): boolean {
  return request.headers.has(DELIVERY_HEADERS.deliveryClass) && request.headers.has(DELIVERY_HEADERS.signature);
}

/** The signing secrets in the environment: one, or several separated by spaces or commas (rotation). */
function signingSecrets(env: AppEnv): string[] {
  const value = env[ENV_KEYS.signingSecret];
  return typeof value === 'string' ? value.split(/[\s,]+/).filter((secret) => secret !== '') : [];
}

const isInteractive = (type: string): type is InteractiveType => (INTERACTIVE_TYPES as readonly string[]).includes(type);

const RUNTIME_DELIVERY_KINDS = new Set(['interactive', 'command', 'lifecycle']);

/**
 * The delivery id the platform's runtime vouches for, or null. A hosted app holds no signing
 * secret: the runtime received the delivery signed from the service, checked who sent it, and says
 * so in `ctx` (which it builds itself; nothing of the request can set it). Requests that reach a
 * hosted app from outside come as routes, without a delivery id.
 */
function vouchedDeliveryId(execution: ExecutionContextLike | undefined): string | null {
  const id = execution?.deliveryId;
  return typeof id === 'string' && id !== '' && RUNTIME_DELIVERY_KINDS.has(execution?.kind ?? '') ? id : null;
}

/**
 * Verifies, reads and dispatches one delivery.
 * @example return handleDelivery(request, env, ctx, tables, envDeclarations, deps);
 */
export async function handleDelivery(
  request: Request, rawEnv: AppEnv, execution: ExecutionContextLike | undefined, tables: AppTables,
  envDeclarations: Readonly<Record<string, EnvDeclaration>>, deps: DeliveryDeps,
): Promise<Response> {
  const { log } = deps;
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  const vouched = vouchedDeliveryId(execution);
  const secrets = signingSecrets(rawEnv);
  if (vouched === null && secrets.length === 0) {
    log.error(`Deliveries cannot be verified: ${ENV_KEYS.signingSecret} is not set`);
    return jsonResponse({ error: 'signing-secret-missing', message: `Set ${ENV_KEYS.signingSecret} to the app's signing secret` }, 500);
  }
  // A secret shorter than Standard Webhooks' 24 bytes is the app's misconfiguration, told as such
  // (a 500 and an error line), not as the caller's bad signature.
  const short = vouched === null ? secrets.map(readSigningSecret).find((read) => !read.ok && read.reason === 'secret-too-short') : undefined;
  if (short !== undefined && !short.ok) {
    log.error(`Deliveries cannot be verified: ${ENV_KEYS.signingSecret}: ${short.message}`);
    return jsonResponse({ error: 'signing-secret-too-short', message: `${ENV_KEYS.signingSecret}: ${short.message}` }, 500);
  }
  const body = await readBody(request, deps.maxBodyBytes);
  if (!body.ok) return jsonResponse({ error: 'body-too-large', message: `Deliveries are at most ${deps.maxBodyBytes} bytes here` }, 413);
  const verdict = vouched !== null ? { ok: true as const, id: vouched } : await verifyDelivery({ headers: request.headers, body: body.bytes, secret: secrets, now: deps.now() });
  if (!verdict.ok) {
    log.warn('Delivery refused: signature not verified', { reason: verdict.reason });
    return jsonResponse({ error: 'invalid-signature', reason: verdict.reason }, 401);
  }

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes));
  } catch {
    return jsonResponse({ error: 'invalid-json', message: 'The delivery body is not JSON' }, 400);
  }
  // The lean twin of EnvelopeSchema (delivery/lean): same verdict, value and first issue, no zod in the bundle.
  const parsed = read(envelopeCheck, json);
  if (!parsed.ok) {
    return jsonResponse({ error: 'invalid-envelope', message: `The envelope does not match its schema at ${parsed.path.join('.') || '(root)'}: ${parsed.message}` }, 400);
  }
  const envelope = parsed.value as DeliveryEnvelope;
  if (envelope.id !== verdict.id) return jsonResponse({ error: 'id-mismatch', message: 'The envelope id differs from webhook-id' }, 400);

  const env = readEnv(envDeclarations, rawEnv);
  if (!env.ok) {
    log.error(`Environment variable ${env.key}: ${env.message}`);
    return jsonResponse({ error: 'env-invalid', message: `Environment variable ${env.key}: ${env.message}` }, 500);
  }
  const ctxDeps: ContextDeps = { env: env.env, log, fetch: deps.fetch, execution };
  const fields = { delivery: envelope.id, type: envelope.type };
  const interactive = isInteractive(envelope.type);

  if (deps.seen && await deps.seen.has(envelope.id)) {
    log.info('Delivery already handled; not run again', fields);
    return interactive ? jsonResponse({ error: 'duplicate', message: 'This delivery was already handled' }, 409) : acknowledged();
  }
  try {
    if (interactive) {
      await deps.seen?.add(envelope.id);
      return await handleInteractive(envelope, envelope.type as InteractiveType, tables, ctxDeps);
    }
    const response = await handleLifecycle(envelope, tables, ctxDeps, deps.versions);
    if (response.ok) await deps.seen?.add(envelope.id);
    return response;
  } catch (error) {
    return failureResponse(error, log, fields);
  }
}
