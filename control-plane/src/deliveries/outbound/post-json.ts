/**
 * @module deliveries/outbound/post-json
 * One signed POST to an app, with the spec's delivery limits: a deadline for the whole exchange,
 * a cap on the response body (counted as it streams by `readCapped` of @platform/sdk, so a hostile app
 * cannot make us buffer more), and no redirects (a delivery's URL is the app's endpoint, not
 * wherever it points us). Never throws: every way it can go wrong is an outcome the caller records.
 */
import { readCapped } from '@platform/sdk';
import { request, type Dispatcher } from 'undici';
import { OutboundRefusedError, assertUrlAllowed, type GuardOptions } from './guarded-agent.ts';

export type PostOutcome =
  | { ok: true; status: number; headers: Record<string, string>; body: Uint8Array; durationMs: number }
  | { ok: false; failure: 'timeout' | 'too-large' | 'refused' | 'network'; message: string; status?: number; durationMs: number };

export interface PostJsonInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  dispatcher: Dispatcher;
  guard: GuardOptions;
  now?: () => number;
}

function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * @example
 * const outcome = await postJson({ url, body, headers, timeoutMs: 5000, maxResponseBytes: 1 << 20, dispatcher, guard });
 * if (outcome.ok && outcome.status === 200) …
 */
export async function postJson(input: PostJsonInput): Promise<PostOutcome> {
  const now = input.now ?? (() => performance.now());
  const started = now();
  const elapsed = () => Math.round((now() - started) * 100) / 100;
  let url: URL;
  try {
    url = new URL(input.url);
    assertUrlAllowed(url, input.guard);
  } catch (error) {
    return { ok: false, failure: 'refused', message: error instanceof OutboundRefusedError ? error.reason : 'invalid URL', durationMs: elapsed() };
  }
  // A timer of our own, cleared with the answer: `AbortSignal.timeout` cannot be cleared, so each
  // delivery's signal would fire (an abort event and a DOMException with its stack) seconds after
  // its answer, long after anyone listens: measured at 0.6 % of a click's control-plane CPU.
  const abort = new AbortController();
  const signal = abort.signal;
  const deadline = setTimeout(() => abort.abort(), input.timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      body: input.body,
      headers: input.headers,
      dispatcher: input.dispatcher,
      signal,
    });
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > input.maxResponseBytes) {
      response.body.destroy();
      return { ok: false, failure: 'too-large', status: response.statusCode, message: `response body of ${declared} bytes is over ${input.maxResponseBytes}`, durationMs: elapsed() };
    }
    const body = await readCapped(response.body, input.maxResponseBytes);
    if (body === null) {
      return { ok: false, failure: 'too-large', status: response.statusCode, message: `response body is over ${input.maxResponseBytes} bytes`, durationMs: elapsed() };
    }
    return { ok: true, status: response.statusCode, headers: headerRecord(response.headers), body, durationMs: elapsed() };
  } catch (error) {
    if (signal.aborted) return { ok: false, failure: 'timeout', message: `no answer within ${input.timeoutMs} ms`, durationMs: elapsed() };
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof OutboundRefusedError || cause instanceof OutboundRefusedError) {
      return { ok: false, failure: 'refused', message: (cause instanceof OutboundRefusedError ? cause : (error as OutboundRefusedError)).reason, durationMs: elapsed() };
    }
    return { ok: false, failure: 'network', message: (error as Error).message, durationMs: elapsed() };
  } finally {
    clearTimeout(deadline);
  }
}
