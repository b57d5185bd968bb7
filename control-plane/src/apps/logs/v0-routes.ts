/**
 * @module apps/logs/v0-routes
 * `GET /v0/apps/{app_id}/logs`: a hosted app's log lines, newest first, a page at a time, filtered
 * by status, version, install, kind and delivery. `GET /v0/apps/{app_id}/logs/stream`: the same lines live,
 * as server-sent events (`event: line`, `id:` the line's id, `data:` the line as JSON), after an
 * `event: ready` that says the stream is subscribed; with `after` (or `Last-Event-ID`) the stored
 * lines after that id come first. Credentials: tooling (member API key of the app's owner or a
 * workspace admin, a deploy token for the app, an agent builder token for an app the member owns);
 * preview-only credentials read the lines of preview versions only.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { AppEnv } from '../../core/http/env.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import { LogPageSchema, LogQuerySchema, LogStreamQuerySchema, type LogLine, type LogStreamQuery } from './schemas.ts';
import { matches, type LogsService, type StreamReader } from './service.ts';

const errors = [{ status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it' }];

/** A comment line now and then keeps proxies from closing an idle stream. */
export const KEEPALIVE_MS = 15_000;

export function registerAppLogV0Routes(api: V0Api, logs: LogsService): void {
  api.route({
    operationId: 'listAppLogs', method: 'get', path: '/apps/{app_id}/logs', tag: 'tooling', auth: 'tooling',
    summary: 'A hosted app\'s log lines, newest first (console output, errors with their stacks, limit events, one line per request)',
    description: 'Kept for APP_LOG_RETENTION_HOURS (72 by default). `nextCursor` fetches older lines. Filters: `status` (`error`: lines of failed '
      + 'requests, and error and limit lines), `version`, `install`, `kind` (route, mcp, interactive, command, lifecycle), `delivery`. '
      + 'A line about an error carries it as data (`error`: name, message, frames naming the app\'s files, lines and functions when the version '
      + 'was uploaded with its source map; each frame keeps its position in the bundle as `raw`). '
      + 'Credentials that may deploy previews only (a preview-only deploy token, an agent builder token) read the lines of preview versions only.',
    query: LogQuerySchema, status: 200, response: LogPageSchema, errors,
  }, async ({ auth, params, query }) => logs.list(auth, params.app_id, query));

  api.route({
    operationId: 'getAppLogProfile', method: 'get', path: '/apps/{app_id}/logs/{line_id}/profile', tag: 'tooling', auth: 'tooling',
    summary: 'The sampled CPU profile of a request stopped at its CPU budget, as a `.cpuprofile` file (opens in Chrome DevTools)',
    description: 'Linked from the `profile` field of the request\'s `limit` line. After a version is stopped at its CPU budget, the node '
      + 'profiles its next request (at most one a minute per version); a profile exists when that request was stopped too.',
    status: 200, produces: 'application/json',
    errors: [{ status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it; PlatformApiNotFoundError: the line has no profile' }],
  }, async ({ c, auth, params }) => {
    const { appId, json } = await logs.profile(auth, params.app_id, params.line_id);
    return c.body(json, 200, {
      'content-type': 'application/json',
      'content-disposition': `attachment; filename="${appId}-${params.line_id}.cpuprofile"`,
    });
  });

  api.route({
    operationId: 'streamAppLogs', method: 'get', path: '/apps/{app_id}/logs/stream', tag: 'tooling', auth: 'tooling',
    summary: 'A hosted app\'s log lines as they arrive (server-sent events)',
    description: 'Events: `ready` once subscribed, then `line` per log line (`id`: the line\'s id, `data`: the line as in the list). '
      + 'With `after` or `Last-Event-ID`, stored lines after that id (at most 500) come first. Filters as in the list.',
    query: LogStreamQuerySchema, status: 200, produces: 'text/event-stream', errors,
  }, async ({ c, auth, params, query }) => {
    const reader = await logs.authorize(auth, params.app_id);
    const after = query.after ?? lastEventId(c);
    return streamSSE(c, (stream) => serve(stream, reader, query, after));
  });

  /** Subscribes, replays, says ready, then passes live lines on until the client or the server ends it. */
  async function serve(stream: SSEStreamingApi, reader: StreamReader, filters: LogStreamQuery, after: string | undefined): Promise<void> {
    let finish = (): void => {};
    const ended = new Promise<void>((resolve) => { finish = resolve; });
    // Writes go one after another: a live batch may arrive while the replay is being written. A
    // failed write means the client is gone: the stream ends.
    let writing: Promise<void> = Promise.resolve();
    const enqueue = (send: () => Promise<void>): void => { writing = writing.then(send).catch(finish); };
    // In the write queue, so that lines keep their order while the reader's check may read the database.
    const write = (lines: LogLine[]): void => enqueue(async () => {
      for (const line of await reader.visible(lines)) if (matches(line, filters)) await stream.writeSSE({ event: 'line', id: line.id, data: JSON.stringify(line) });
    });
    // Live lines wait while the replay is read; those the replay also returned are sent once.
    let held: LogLine[] | null = [];
    const unsubscribe = await logs.subscribe(reader.appId, (lines) => (held === null ? write(lines) : held.push(...lines)));
    const untrack = logs.track(finish);
    stream.onAbort(finish);
    const keepalive = setInterval(() => enqueue(async () => { await stream.write(': keepalive\n\n'); }), KEEPALIVE_MS);
    try {
      const replayed = after === undefined ? [] : await logs.replay(reader, filters, Number(after));
      write(replayed);
      const seen = new Set(replayed.map((l) => l.id));
      const pending = held.filter((l) => !seen.has(l.id));
      held = null;
      write(pending);
      enqueue(() => stream.writeSSE({ event: 'ready', data: '{}' }));
      await ended;
    } finally {
      clearInterval(keepalive);
      untrack();
      await unsubscribe();
      await writing;
    }
  }
}

function lastEventId(c: Context<AppEnv>): string | undefined {
  const value = c.req.header('last-event-id');
  return value !== undefined && /^\d{1,19}$/.test(value) ? value : undefined;
}
