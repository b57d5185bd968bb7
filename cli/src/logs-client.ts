/**
 * @module cli/logs-client
 * The service calls of `platform logs`: the recent lines (`GET /v0/apps/{app_id}/logs`), the live
 * stream (`…/logs/stream`, server-sent events read with a small reader of its own), reopened from
 * the last line seen when it drops, and a line's CPU profile saved as a `.cpuprofile` file.
 * Failures throw the typed client's `PlatformClientError`, as the other commands' calls do.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformClientError } from '@platform/sdk';
import { UsageError } from './args.ts';
import type { Session } from './config-store.ts';
import type { LogLine, Printer } from './logs-output.ts';
import { note } from './output.ts';
import { failure } from './service.ts';

export interface Filters { status?: string; version?: string; kind?: string; install?: string; delivery?: string }

async function call(session: Session, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(session.url + path, { ...init, headers: { authorization: `Bearer ${session.apiKey}`, ...init.headers } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    const cause = (err as Error & { cause?: Error }).cause;
    throw new PlatformClientError('PlatformClientNetworkError', 0, `Could not reach ${session.url}: ${cause?.message ?? (err as Error).message}`, { cause: err });
  }
}

export async function recent(session: Session, appId: string, filters: Filters, limit: number): Promise<LogLine[]> {
  const query = new URLSearchParams({ ...filters, limit: String(limit) });
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs?${query}`;
  const res = await call(session, path, { headers: { accept: 'application/json' } });
  if (!res.ok) throw await failure(res, `GET ${path}`);
  return ((await res.json()) as { items: LogLine[] }).items;
}

/** Reads one stream until it ends; each `line` event goes to `onLine`. */
async function readStream(session: Session, appId: string, filters: Filters, after: string | null, signal: AbortSignal, on: { line(l: LogLine): void; ready(): void }): Promise<void> {
  const query = new URLSearchParams({ ...filters, ...(after === null ? {} : { after }) });
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs/stream?${query}`;
  const res = await call(session, path, { headers: { accept: 'text/event-stream' }, signal });
  if (!res.ok || res.body === null) throw await failure(res, `GET ${path}`);
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const field of block.split('\n')) {
        if (field.startsWith('event:')) event = field.slice(6).trim();
        else if (field.startsWith('data:')) data.push(field.slice(5).replace(/^ /, ''));
      }
      if (event === 'line') on.line(JSON.parse(data.join('\n')) as LogLine);
      else if (event === 'ready') on.ready();
    }
  }
}

/** Follows the stream until `signal` aborts; a stream that drops is reopened after the last line seen. */
export async function follow(session: Session, appId: string, filters: Filters, after: string, signal: AbortSignal, printer: Printer): Promise<void> {
  let last = after;
  let failures = 0;
  let told = false;
  while (!signal.aborted) {
    try {
      await readStream(session, appId, filters, last, signal, {
        line(l) {
          last = l.id;
          failures = 0;
          printer.line(l);
        },
        ready() {
          if (!told) note(`Following the logs of ${appId} (Ctrl-C ends)`);
          told = true;
        },
      });
    } catch (err) {
      if (signal.aborted) return;
      // Refusals (a 4xx: no such app, a revoked key) will not get better by waiting.
      if (err instanceof PlatformClientError && err.status >= 400 && err.status < 500) throw err;
      if (++failures > 5) throw err;
    }
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, Math.min(10_000, 500 * 2 ** failures));
      signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
    });
  }
}

/**
 * The lines of one delivery (a replay's), from the first: the stream filtered by `delivery`, read
 * until the request's own `request` line (its last) arrives, or `signal` ends the wait.
 */
export async function deliveryLines(session: Session, appId: string, deliveryId: string, signal: AbortSignal): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  const done = new AbortController();
  const stop = () => done.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    await readStream(session, appId, { delivery: deliveryId }, '0', done.signal, {
      line(l) {
        lines.push(l);
        if (l.level === 'request') done.abort();
      },
      ready() {},
    });
  } catch (err) {
    if (!done.signal.aborted) throw err;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return lines;
}

/** Saves a line's CPU profile in the working directory; the file's name. */
export async function saveProfile(session: Session, appId: string, lineId: string): Promise<string> {
  if (!/^\d{1,15}$/.test(lineId)) throw new UsageError(`--profile takes a log line id (digits), not "${lineId}"`);
  const path = `/v0/apps/${encodeURIComponent(appId)}/logs/${lineId}/profile`;
  const res = await call(session, path);
  if (!res.ok) throw await failure(res, `GET ${path}`);
  const file = `${appId}-${lineId}.cpuprofile`;
  await writeFile(join(process.cwd(), file), Buffer.from(await res.arrayBuffer()));
  return file;
}

/**
 * @example await logsCommand(['my-app', '--follow', '--status', 'error']);
 */
