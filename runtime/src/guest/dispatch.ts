/**
 * @module guest/dispatch
 * The entry points the host calls: bind the app module, start one request, read the manifest.
 * A request's outcome goes back through `core.respond` / `core.fail`, then `core.done` once every
 * `ctx.waitUntil` promise settled. Nothing here throws into the host.
 */
import { CORE, CORE_METHODS, GUEST_LIMITS, type BodyKind, type HeaderBlock, type RequestKind } from '../shared/bridge.ts';
import { dropAllOps, postHost } from './web/bridge.ts';
import { resetTimers } from './capabilities/timers.ts';
import { describeError } from './web/errors.ts';
import { requestFromHost } from './web/request.ts';
import { isResponse, responseParts } from './web/response.ts';

interface AppModule {
  fetch: (request: unknown, env: unknown, ctx: unknown) => unknown;
  manifest?: unknown;
}

let app: AppModule | null = null;
let bindProblem = 'The bundle has not been loaded';
// The env object of this isolate, frozen once and handed to every request until the host sends
// another (the host sends it only when it changed).
let envId = -1;
let envObject: Readonly<Record<string, string>> = Object.freeze({});

/** Takes the module namespace; returns null when its default export is usable, else the reason. */
export function bindModule(namespace: unknown): string | null {
  try {
    const exported = (namespace as { default?: unknown }).default;
    if ((typeof exported !== 'object' && typeof exported !== 'function') || exported === null) {
      bindProblem = 'The bundle has no default export object';
    } else if (typeof (exported as AppModule).fetch !== 'function') {
      bindProblem = 'The default export has no fetch(request, env, ctx) function';
    } else {
      app = exported as AppModule;
      return null;
    }
  } catch (err) {
    bindProblem = `Reading the default export failed: ${describeError(err).message}`;
  }
  return bindProblem;
}

function fail(err: unknown): void {
  const { message, stack, name, text } = describeError(err);
  postHost(CORE, CORE_METHODS.fail, message, stack, name, text);
}

/** A line of the app's log about an error the guest runtime caught (`waitUntil: …`, `Uncaught …`). */
export function postErrorLine(prefix: string, err: unknown): void {
  const { message, stack, name, text } = describeError(err);
  postHost('console', 'line', 'error', `${prefix}${message}`, name, text, stack);
}

/** Hands the response to the host; `settled` when no `waitUntil` work is pending (one call instead of two). */
function respond(value: unknown, settled: boolean): boolean {
  if (!isResponse(value)) {
    fail(new TypeError('The fetch handler must return a Response (or a promise of one)'));
    return false;
  }
  try {
    const parts = responseParts(value);
    postHost(CORE, CORE_METHODS.respond, parts.status, parts.statusText, parts.headers, parts.body, parts.bodyKind, settled);
    return settled;
  } catch (err) {
    fail(err);
    return false;
  }
}

async function settle(waits: Array<Promise<unknown>>): Promise<void> {
  let seen = 0;
  while (seen < waits.length) {
    const batch = waits.slice(seen);
    seen = waits.length;
    await Promise.allSettled(batch);
  }
  postHost(CORE, CORE_METHODS.done);
}

/**
 * Starts one request. Arguments are primitives (see shared/bridge.ts); `env` is passed only when
 * `nextEnvId` differs from the env this isolate holds.
 */
export function dispatch(method: string, url: string, headers: HeaderBlock, body: string | null, bodyKind: BodyKind,
  kind: RequestKind, requestId: string, deliveryId: string | null, nextEnvId: number, env?: Record<string, string>): void {
  dropAllOps();
  resetTimers();
  if (nextEnvId !== envId) {
    envObject = Object.freeze({ ...(env ?? {}) });
    envId = nextEnvId;
  }
  const waits: Array<Promise<unknown>> = [];
  try {
    if (app === null) throw new Error(bindProblem);
    const handler = app;
    const request = requestFromHost(method, url, headers, body, bodyKind);
    const ctx = Object.freeze({
      kind,
      requestId,
      deliveryId,
      waitUntil(promise: unknown): void {
        waits.push(Promise.resolve(promise).catch((err: unknown) => postErrorLine('waitUntil: ', err)));
      },
      passThroughOnException(): void {},
    });
    const result = handler.fetch(request, envObject, ctx);
    Promise.resolve(result).then((value) => respond(value, waits.length === 0), (err: unknown) => { fail(err); return false; })
      .then((done) => { if (!done) return settle(waits); });
  } catch (err) {
    fail(err);
    void settle(waits);
  }
}

/** The manifest as JSON text, computed by the bundle's code (an object, or a function returning one). */
export function readManifest(): { ok: true; json: string } | { ok: false; message: string; error?: { name: string; message: string; stack: string } } {
  try {
    if (app === null) return { ok: false, message: bindProblem };
    let manifest = app.manifest;
    if (typeof manifest === 'function') manifest = (manifest as () => unknown).call(app);
    if (manifest === undefined || manifest === null) return { ok: false, message: 'The default export has no manifest' };
    const json = JSON.stringify(manifest);
    if (typeof json !== 'string') return { ok: false, message: 'The manifest cannot be serialized to JSON' };
    if (json.length > GUEST_LIMITS.manifestChars) return { ok: false, message: `The manifest is larger than ${GUEST_LIMITS.manifestChars} characters` };
    return { ok: true, json };
  } catch (err) {
    const { message, stack, name, text } = describeError(err);
    return { ok: false, message, error: { name, message: text, stack } };
  }
}
