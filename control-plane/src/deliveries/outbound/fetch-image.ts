/**
 * @module deliveries/outbound/fetch-image
 * One image fetched from a URL an app chose, through the same guard as every delivery (https only,
 * no internal addresses, the connected address checked: `guarded-agent.ts`), within the spec's
 * copy limits: the whole download, redirects included, within 4 seconds, and at most 5 MB read
 * (counted as it streams). Redirects are followed by hand, at most three, each new URL checked
 * again before it is called. Never throws: every way it fails is an outcome with a message.
 */
import { LIMITS, readCapped } from '@platform/sdk';
import { request, type Dispatcher } from 'undici';
import { OutboundRefusedError, assertUrlAllowed, isTestLoopbackHost, type GuardOptions } from './guarded-agent.ts';

export type ImageFetchOutcome =
  | { ok: true; bytes: Uint8Array; url: string }
  | { ok: false; failure: 'refused' | 'timeout' | 'too-large' | 'status' | 'network'; message: string };

export interface ImageFetchDeps {
  dispatcher: Dispatcher;
  guard: GuardOptions;
  /** Default: the spec's 4 seconds. */
  timeoutMs?: number;
  /** Default: the spec's 5 MB. */
  maxBytes?: number;
}

/** `withinMs`: a shorter deadline than the 4 s (what is left of a delivery's wait). */
export type ImageFetch = (url: string, withinMs?: number) => Promise<ImageFetchOutcome>;

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Drops a body we will not read (undici reports its destruction as an error event: heard here, not thrown). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.once('error', () => undefined);
  body.destroy();
}

/** The URL to call: a test loopback name is spoken to over http (the tree says https). */
function callable(url: URL, guard: GuardOptions): URL {
  if (!isTestLoopbackHost(guard, url.hostname) || url.protocol === 'http:') return url;
  const plain = new URL(url);
  plain.protocol = 'http:';
  return plain;
}

/**
 * @example
 * const fetchImage = createImageFetch({ dispatcher: createGuardedAgent(guard), guard });
 * const got = await fetchImage('https://cdn.example.com/chart.png');
 */
export function createImageFetch(deps: ImageFetchDeps): ImageFetch {
  const timeoutMs = deps.timeoutMs ?? LIMITS.blockData.imageDownloadMs;
  const maxBytes = deps.maxBytes ?? LIMITS.blockData.imageBytes;
  const tooLarge = { ok: false, failure: 'too-large', message: `Copied images are at most ${maxBytes / (1024 * 1024)} MB` } as const;
  return async (source, withinMs) => {
    const deadline = Math.min(timeoutMs, withinMs ?? timeoutMs);
    if (deadline <= 0) return { ok: false, failure: 'timeout', message: 'No time was left to download the image' };
    // A timer cleared once the download is settled: an abort after that would fail a body already read.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), deadline);
    const signal = controller.signal;
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      clearTimeout(timer);
      return { ok: false, failure: 'refused', message: 'The image URL is not a URL' };
    }
    try {
      for (let hop = 0; ; hop++) {
        assertUrlAllowed(url, deps.guard);
        const response = await request(callable(url, deps.guard), {
          method: 'GET', dispatcher: deps.dispatcher, signal, headers: { accept: 'image/jpeg, image/png, image/webp, image/gif' },
        });
        const location = response.headers.location;
        if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
          discard(response.body);
          if (hop >= MAX_REDIRECTS) return { ok: false, failure: 'refused', message: `The image URL redirects more than ${MAX_REDIRECTS} times` };
          url = new URL(location, url);
          continue;
        }
        if (response.statusCode !== 200) {
          discard(response.body);
          return { ok: false, failure: 'status', message: `The image URL answered ${response.statusCode}` };
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          discard(response.body);
          return tooLarge;
        }
        const bytes = await readCapped(response.body, maxBytes);
        if (bytes === null) return tooLarge;
        return { ok: true, bytes, url: url.href };
      }
    } catch (error) {
      if (signal.aborted) return { ok: false, failure: 'timeout', message: `Copied images download within ${timeoutMs / 1000} seconds` };
      const cause = (error as { cause?: unknown }).cause;
      const refused = error instanceof OutboundRefusedError ? error : cause instanceof OutboundRefusedError ? cause : null;
      if (refused !== null) return { ok: false, failure: 'refused', message: `The image URL is refused: ${refused.reason}` };
      return { ok: false, failure: 'network', message: 'The image could not be downloaded' };
    } finally {
      clearTimeout(timer);
    }
  };
}
