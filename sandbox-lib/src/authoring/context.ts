/**
 * @module authoring/context
 * What every handler receives: the envelope and its parts, the install token, a `/v0` client bound
 * to it (the lean client: the service checks what it sends), the environment, a logger and `waitUntil`. The client is created on first use, so a
 * handler that never calls the API needs no `PLATFORM_API_URL`.
 */
import type { z } from 'zod';
import type { EnvelopeSchema } from '../delivery/index.ts';
import { createLeanPlatformClient } from '../client/lean.ts';
import type { PlatformClient } from '../client/methods.ts';
import type { StorageClient } from '../client/storage.ts';
import type { Logger } from './logger.ts';
import type { KnownKeys } from './schema.ts';
import { ENV_KEYS, type AppEnv } from './env.ts';

export type { AppEnv } from './env.ts';


type Envelope = z.infer<typeof EnvelopeSchema>;

/**
 * A delivery envelope whose `data` has the type `D`. Its parts list their fields only: zod's loose
 * objects add an index signature, which would let a typo such as `ctx.actor.id` (the field is
 * `memberId`) type-check.
 */
export type DeliveryEnvelope<D = Record<string, unknown>> = Omit<KnownKeys<Envelope>, 'data' | 'app' | 'install' | 'installToken' | 'actor'> & {
  app: KnownKeys<Envelope['app']>;
  install: KnownKeys<Envelope['install']>;
  /** Absent in deliveries to hosted apps (the runtime adds the token to `/v0` calls). */
  installToken?: KnownKeys<NonNullable<Envelope['installToken']>>;
  /** The member who caused the delivery; absent for deliveries no member caused. */
  actor?: KnownKeys<NonNullable<Envelope['actor']>>;
  data: D;
};

/** The host's execution context (`waitUntil` keeps work alive after the response, where the host supports it). */
export interface ExecutionContextLike {
  waitUntil?(promise: Promise<unknown>): void;
  /** Set by the platform's runtime for hosted apps: what the request is (`interactive`, `lifecycle`, `route`, …). */
  readonly kind?: string;
  /** Set by the platform's runtime for a delivery it received signed from the service (hosted apps hold no signing secret). */
  readonly deliveryId?: string | null;
  /**
   * Set by a server whose deliveries come from the platform (the Node adapter's `serve`): the
   * service checks every tree an app answers before it keeps it, so outside development (an install
   * of kind `workspace`) the SDK does not check it a second time. Development installs, tests
   * calling `app.fetch` and hosted isolates keep the SDK's check (decisions/clicks.md).
   */
  readonly platformChecksTrees?: boolean;
}

/** Fields every delivery handler gets. */
export interface HandlerContext<E extends DeliveryEnvelope<unknown> = DeliveryEnvelope> {
  readonly envelope: E;
  readonly app: E['app'];
  readonly install: E['install'];
  readonly actor: E['actor'];
  /** Absent in deliveries to hosted apps: the runtime adds the token to calls to `/v0` itself. */
  readonly installToken: E['installToken'];
  /** The install's config (set by an admin on the install form), `{}` when none. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly env: AppEnv;
  /** A `/v0` client bound to the install token (base URL from `PLATFORM_API_URL`). */
  readonly api: PlatformClient;
  /**
   * The install's key-value storage (`ctx.api.storage`; docs/decisions/storage.md). In a block
   * action it carries the interaction token: its writes commit with the action's result.
   * @example const { value } = await ctx.storage.get<number>('visits'); await ctx.storage.sum('visits', 1);
   */
  readonly storage: StorageClient;
  readonly log: Logger;
  /** Keep `promise` running after the answer is sent; its failure is logged. */
  waitUntil(promise: Promise<unknown>): void;
  /**
   * The install's own queue (ours, docs/decisions/queues.md): each message comes back as a
   * `queue.message` delivery to the app's `defineQueue` handler, after `delaySeconds`.
   * @example await ctx.queue.send({ remind: memberId }, { delaySeconds: 3 * 86_400, key: `remind:${memberId}` });
   */
  readonly queue: QueueSender;
}

/** `ctx.queue`: sends through `ctx.api` (`POST /v0/queue/messages`) with the install token. */
export interface QueueSender {
  send(body: unknown, options?: { delaySeconds?: number; key?: string }): Promise<{ id: string; deduplicated: boolean; deliverAt: string }>;
  sendBatch(messages: ReadonlyArray<{ body: unknown; delaySeconds?: number; key?: string }>): Promise<Array<{ id: string; deduplicated: boolean; deliverAt: string }>>;
}

/** A queue sender over a client created on first use. */
export function queueSender(api: () => PlatformClient): QueueSender {
  return {
    send: async (body, options = {}) => (await api().queue.send(body, options)).messages[0]!,
    sendBatch: async (messages) => (await api().queue.sendBatch(messages as never)).messages,
  };
}

export interface ContextDeps {
  readonly env: AppEnv;
  readonly log: Logger;
  readonly fetch?: typeof fetch;
  readonly execution?: ExecutionContextLike;
}

/** `waitUntil` that logs a failure instead of leaving an unhandled rejection. */
export function waitUntilOf(deps: Pick<ContextDeps, 'log' | 'execution'>): (promise: Promise<unknown>) => void {
  return (promise) => {
    const guarded = Promise.resolve(promise).catch((error: unknown) => deps.log.error('Background work failed', { error: describeError(error) }));
    deps.execution?.waitUntil?.(guarded);
  };
}

/** A `/v0` client created on first use from the environment and a token. */
export function lazyClient(deps: Pick<ContextDeps, 'env' | 'fetch'>, token: string | undefined): () => PlatformClient {
  let client: PlatformClient | undefined;
  return () => {
    if (client) return client;
    const baseUrl = deps.env[ENV_KEYS.apiUrl];
    if (typeof baseUrl !== 'string' || baseUrl === '') {
      throw new Error(`ctx.api needs the service's base URL in the environment variable ${ENV_KEYS.apiUrl}`);
    }
    // The lean client: no zod in an app bundle; the service checks what it is sent (client/lean.ts).
    client = createLeanPlatformClient({ baseUrl, token, fetch: deps.fetch });
    return client;
  };
}

/** The context fields shared by every delivery handler. */
export function handlerContext<E extends DeliveryEnvelope<unknown>>(envelope: E, deps: ContextDeps): HandlerContext<E> {
  const api = lazyClient(deps, envelope.installToken?.token);
  return {
    envelope,
    app: envelope.app,
    install: envelope.install,
    actor: envelope.actor,
    installToken: envelope.installToken,
    config: envelope.install.config ?? {},
    env: deps.env,
    get api() {
      return api();
    },
    get storage() {
      return api().storage;
    },
    log: deps.log,
    waitUntil: waitUntilOf(deps),
    queue: queueSender(api),
  };
}

/**
 * `base` with `extra`'s fields, keeping getters as getters (a spread would call `api` and create
 * the client, failing handlers that never use it when `PLATFORM_API_URL` is unset).
 * @example const ctx = extendContext(handlerContext(envelope, deps), { mode: 'interactive' });
 */
export function extendContext<B extends object, X extends object>(base: B, extra: X): B & X {
  return Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(base), ...Object.getOwnPropertyDescriptors(extra) }) as B & X;
}

/** An error as log fields: message and stack of an Error, the value otherwise (never thrown itself). */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  try {
    return { value: String(error) };
  } catch {
    return { value: 'unprintable' };
  }
}
