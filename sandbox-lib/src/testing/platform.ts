/**
 * @module testing/platform
 * `createTestPlatform`: calls an app the way the platform does, with no platform running. A hosted
 * app (`hosting: 'platform'`) gets its deliveries as the runtime passes them (signed, vouched for in
 * `ctx`, no install token in the envelope), a self-hosted one signed with its signing secret in the
 * environment (and an install token in the envelope); a bare handler function is self-hosted and
 * must check the harness's `signingSecret`. Answers come back typed and checked with the schemas
 * the service checks them with; every `/v0` call the handler made (its `ctx.api`, or any fetch to
 * the API origin) is recorded in `calls`, answered by the test's `api` function.
 *
 * `globalThis.fetch` is the recording fetch while a call runs (and until the work it handed to
 * `ctx.waitUntil` has finished): a hosted app's `/v0` calls go through the global fetch, as in the
 * runtime. Calls into the app are therefore run one at a time.
 */
import type { App } from '../authoring/app.ts';
import type { ExecutionContextLike } from '../authoring/context.ts';
import { ENV_KEYS } from '../authoring/env.ts';
import { DEFERRABLE_TYPES, type InteractiveType } from '../delivery/constants.ts';
import { HOSTED_DELIVERY_PATH } from '../delivery/headers.ts';
import { interactiveResultSchemas, type InteractiveResult } from '../delivery/interactive.ts';
import type { EventData } from '../delivery/lifecycle.ts';
import type { EventType } from '../events/index.ts';
import { encodeBase64 } from '../signing/base64.ts';
import { deliveryHeaders } from '../signing/sign.ts';
import { recordingFetch, type ApiAnswer, type ApiCall } from './api-calls.ts';
import { envelope, eventData, interactiveData, type DeliveryInput, type DeliveryParties, type Envelope } from './deliveries.ts';

/** What a test calls: a `defineApp()` object, or a self-hosted app's request handler. */
export type TestTarget = App | ((request: Request) => Response | Promise<Response>);

export interface TestPlatformOptions {
  readonly app: TestTarget;
  /** Who and where deliveries come from (each call may override them). */
  readonly parties?: DeliveryParties;
  /** `whsec_…`; default: a new random secret (read it from `signingSecret`). */
  readonly signingSecret?: string;
  /** The app's environment variables (a defineApp() object's `env`). */
  readonly env?: Readonly<Record<string, string>>;
  /** The service's API origin the app calls (`PLATFORM_API_URL`). Default `https://platform.test`. */
  readonly apiUrl?: string;
  /** Answers the app's `/v0` calls; without it every call gets `501 PlatformTestNoAnswer`. */
  readonly api?: ApiAnswer;
  /** Milliseconds since the epoch (envelope timestamps and signatures). Default `Date.now`. */
  readonly now?: () => number;
}

/** Why an answer is not one the platform accepts. */
export interface AnswerProblem {
  readonly _tag: 'PlatformTestAnswerInvalid';
  readonly message: string;
  readonly path: ReadonlyArray<PropertyKey>;
}

interface Answered<E> { readonly envelope: E; readonly response: Response; readonly body: unknown }

export type InteractiveOutcome<T extends InteractiveType> =
  | (Answered<Envelope> & { readonly kind: 'answered'; readonly status: 200; readonly result: InteractiveResult<T> })
  | (Answered<Envelope> & { readonly kind: 'deferred'; readonly status: 202 })
  | (Answered<Envelope> & { readonly kind: 'failed'; readonly status: number; readonly problem: AnswerProblem | null });

export type EventOutcome = Answered<Envelope> & { readonly status: number; readonly acknowledged: boolean };

export interface TestPlatform {
  readonly signingSecret: string;
  readonly apiUrl: string;
  /** Every `/v0` call the app made, oldest first (clear it with `calls.length = 0`). */
  readonly calls: ApiCall[];
  /** The recording fetch, for `defineApp(config, { fetch })` or a handler's own client. */
  readonly fetch: typeof fetch;
  /** An interactive delivery (`block.render`, `command.run`, …); the service's own fields may be left out. */
  deliver<T extends InteractiveType>(type: T, data: DeliveryInput<T>, parties?: DeliveryParties): Promise<InteractiveOutcome<T>>;
  /** A lifecycle delivery (`post.created`, `app.installed`, …). */
  event<T extends EventType>(type: T, data: EventData<T>, parties?: DeliveryParties): Promise<EventOutcome>;
  /** A request to one of the app's routes (`'/hello/ada'` or a Request). */
  request(input: string | Request, init?: RequestInit): Promise<Response>;
}

const INVOCATIONS: ReadonlySet<string> = new Set(['command.run', 'messageAction.run']);
const ORIGIN = 'https://app.test';

function randomSecret(): string {
  return `whsec_${encodeBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function answerProblem(type: InteractiveType, status: number, body: unknown): AnswerProblem | null {
  if (status === 202) {
    return (DEFERRABLE_TYPES as readonly string[]).includes(type) ? null : { _tag: 'PlatformTestAnswerInvalid', message: `${type} may not answer 202 (only ${DEFERRABLE_TYPES.join(', ')} may defer)`, path: [] };
  }
  if (status !== 200) return null;
  const parsed = interactiveResultSchemas[type].safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { _tag: 'PlatformTestAnswerInvalid', message: `The ${type} answer does not match its schema at ${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`, path: issue.path };
}

/**
 * @example
 * const platform = createTestPlatform({ app, api: (call) => call.path === '/v0/messages' ? { id: 'msg_1' } : undefined });
 * const run = await platform.deliver('command.run', { command: 'hello', options: { name: 'Ada' } });
 * if (run.kind === 'answered') expect(run.result.text).toBe('Hello, Ada');
 */
export function createTestPlatform(options: TestPlatformOptions): TestPlatform {
  const signingSecret = options.signingSecret ?? randomSecret();
  const apiUrl = options.apiUrl ?? 'https://platform.test';
  const now = options.now ?? Date.now;
  const calls: ApiCall[] = [];
  const target = options.app;
  const hosted = typeof target !== 'function' && target.manifest.hosting !== 'self';
  const env: Record<string, string> = { [ENV_KEYS.apiUrl]: apiUrl, ...(hosted ? {} : { [ENV_KEYS.signingSecret]: signingSecret }), ...options.env };
  // The fetch that was global when a call started: requests to other origins go to it.
  let original: typeof fetch = globalThis.fetch;
  const passThrough: typeof fetch = (input, init) => original(input, init);
  const recorder = recordingFetch({ apiOrigin: apiUrl, calls, answer: options.api, passThrough });
  // Delivery ids are unique across harnesses: an app remembers the ids it handled (a replay runs once).
  const runId = crypto.randomUUID().slice(0, 8);
  let sequence = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs one call into the app with the recording fetch installed, and its `waitUntil` work to the end. */
  const run = <R>(call: (ctx: ExecutionContextLike) => Promise<R>, ctxFields: Omit<ExecutionContextLike, 'waitUntil'>): Promise<R> => {
    const next = queue.then(async () => {
      const background: Array<Promise<unknown>> = [];
      original = globalThis.fetch;
      globalThis.fetch = recorder;
      try {
        const result = await call({ ...ctxFields, waitUntil: (promise) => { background.push(promise); } });
        await Promise.allSettled(background);
        return result;
      } finally {
        globalThis.fetch = original;
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const send = (request: Request, ctx: ExecutionContextLike): Promise<Response> =>
    Promise.resolve(typeof target === 'function' ? target(request) : target.fetch(request, env, ctx));

  async function post(type: string, deliveryClass: 'interactive' | 'lifecycle', data: unknown, parties: DeliveryParties | undefined): Promise<Answered<Envelope>> {
    sequence += 1;
    const at = now();
    const defaults = typeof target === 'function' ? {} : { slug: target.manifest.slug };
    const merged = { ...options.parties, ...parties, app: { ...defaults, ...options.parties?.app, ...parties?.app } };
    const built = envelope(type, data, merged, { id: `dlv_test_${runId}_${sequence}`, now: at, withInstallToken: !hosted });
    const body = JSON.stringify(built);
    const headers = await deliveryHeaders({ id: built.id, timestamp: new Date(at), body, secret: signingSecret, deliveryClass, installId: built.install.id });
    const request = new Request(new URL(HOSTED_DELIVERY_PATH, ORIGIN), { method: 'POST', headers, body });
    const kind = deliveryClass === 'lifecycle' ? 'lifecycle' : INVOCATIONS.has(type) ? 'command' : 'interactive';
    // The runtime vouches for a hosted app's deliveries; a self-hosted app verifies the signature.
    const response = await run((ctx) => send(request, ctx), hosted ? { kind, deliveryId: built.id } : {});
    return { envelope: built, response, body: await readBody(response) };
  }

  return {
    signingSecret,
    apiUrl,
    calls,
    fetch: recorder,
    async deliver(type, data, parties) {
      const answered = await post(type, 'interactive', interactiveData(type, data, sequence + 1), parties);
      const status = answered.response.status;
      const problem = answerProblem(type, status, answered.body);
      if (problem === null && status === 200) return { ...answered, kind: 'answered', status, result: answered.body as InteractiveResult<typeof type> };
      if (problem === null && status === 202) return { ...answered, kind: 'deferred', status };
      return { ...answered, kind: 'failed', status, problem };
    },
    async event(type, data, parties) {
      const answered = await post(type, 'lifecycle', eventData(type, data), parties);
      return { ...answered, status: answered.response.status, acknowledged: answered.response.ok };
    },
    request(input, init) {
      const request = typeof input === 'string' ? new Request(new URL(input, ORIGIN), init) : input;
      return run((ctx) => send(request, ctx), hosted ? { kind: 'route' } : {});
    },
  };
}
