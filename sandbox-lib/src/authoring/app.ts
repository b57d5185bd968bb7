/**
 * @module authoring/app
 * `defineApp`: the composition root of an app. It computes the manifest from the definitions
 * (throwing a named error when a rule is broken, at module load rather than in front of a member),
 * builds the dispatch tables, and exposes one Web-standard `fetch(request, env, ctx)`: deliveries
 * first, then the MCP server's path, then the app's routes, else `404`.
 */
import type { Manifest } from '../manifest/index.ts';
import { blockHandlers, type Block } from './block.ts';
import { commandHandlers, type Command } from './command.ts';
import { extendContext, lazyClient, waitUntilOf, type AppEnv, type ContextDeps, type ExecutionContextLike } from './context.ts';
import { handleDelivery, isDelivery, type DeliveryDeps } from './delivery.ts';
import { readEnv } from './env.ts';
import { eventEntries, type EventSubscriptions } from './events.ts';
import { describeError } from './context.ts';
import { jsonResponse, requestPath } from './http.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { buildManifest, checkPieces, type AppIdentity } from './manifest.ts';
import { mcpHandlers, type Mcp } from './mcp.ts';
import { messageActionHandlers, type MessageAction } from './message-action.ts';
import { referenceHandlers, type Reference } from './reference.ts';
import { compileRoutes, type Routes } from './routes.ts';
import { createSeenStore, createVersionStore, type SeenStore, type VersionStore } from './stores.ts';
import type { AppTables } from './tables.ts';
import { AppDefinitionError } from './errors.ts';
import type { Schedule, ScheduleRun } from './schedule.ts';
import type { Queue, QueueRun } from './queue.ts';
import { pieceRun, QUEUE, QUEUE_HANDLER, SCHEDULE, SCHEDULE_HANDLER } from './initiative-pieces.ts';

export interface AppConfig extends AppIdentity {
  readonly blocks?: readonly Block[];
  readonly references?: readonly Reference[];
  readonly messageActions?: readonly MessageAction[];
  readonly commands?: readonly Command[];
  readonly events?: EventSubscriptions;
  readonly routes?: Routes;
  readonly mcp?: Mcp;
  /** Work on a clock (`defineSchedule`); ours, docs/decisions/schedules.md. */
  readonly schedules?: readonly Schedule[];
  /** What the app does with the messages it sends itself (`defineQueue`); ours, docs/decisions/queues.md. */
  readonly queue?: Queue;
}

/** What the app runs with (not part of the definition): logger, clock, stores, the fetch `ctx.api` uses. */
export interface AppOptions {
  readonly logger?: Logger;
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Remembers handled `webhook-id`s; `false` turns duplicate detection off. Default: in memory, 10,000 ids. */
  readonly seen?: SeenStore | false;
  /** Remembers the newest version handled per event subject; `false` turns the check off. Default: in memory. */
  readonly versions?: VersionStore | false;
  /** The fetch `ctx.api` calls `/v0` with. Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Largest delivery body read (default 4 MB). */
  readonly maxDeliveryBytes?: number;
}

/** A defined app: its computed manifest and its `fetch`. A hosted bundle's default export is this object. */
export interface App {
  readonly manifest: Manifest;
  fetch(request: Request, env?: AppEnv, ctx?: ExecutionContextLike): Promise<Response>;
  /** The manifest, so `JSON.stringify(app)` is what tooling syncs. */
  toJSON(): Manifest;
}

/**
 * Defines an app.
 * @example
 * export default defineApp({
 *   name: 'Counter', slug: 'counter', hosting: 'self', endpoint: 'https://counter.example.com/platform',
 *   blocks: [counter], commands: [count],
 *   routes: { 'GET /health': () => new Response('ok') },
 * });
 */
export function defineApp(config: AppConfig, options: AppOptions = {}): App {
  if (typeof config !== 'object' || config === null) throw new AppDefinitionError([], 'defineApp takes the app definition object');
  const blocks = checkPieces<Block>(config.blocks, 'blocks', 'defineBlock', (value) => blockHandlers(value) !== undefined);
  const references = checkPieces<Reference>(config.references, 'references', 'defineReference', (value) => referenceHandlers(value) !== undefined);
  const messageActions = checkPieces<MessageAction>(config.messageActions, 'messageActions', 'defineMessageAction', (value) => messageActionHandlers(value) !== undefined);
  const commands = checkPieces<Command>(config.commands, 'commands', 'defineCommand', (value) => commandHandlers(value) !== undefined);
  const scheduleRun = (value: unknown) => pieceRun<ScheduleRun>(value, SCHEDULE, SCHEDULE_HANDLER);
  const schedules = checkPieces<Schedule>(config.schedules, 'schedules', 'defineSchedule', (value) => scheduleRun(value) !== undefined);
  const queue = config.queue === undefined ? undefined : pieceRun<QueueRun>(config.queue, QUEUE, QUEUE_HANDLER);
  if (config.queue !== undefined && !queue) throw new AppDefinitionError(['queue'], 'expected defineQueue(...)');
  const mcp = config.mcp === undefined ? undefined : mcpHandlers(config.mcp);
  if (config.mcp !== undefined && !mcp) throw new AppDefinitionError(['mcp'], 'expected defineMcp(...)');
  const events = eventEntries(config.events ?? {});
  const tables: AppTables = {
    blocks: new Map(blocks.map((block) => [block.type, blockHandlers(block)!])),
    references: new Map(references.map((reference) => [reference.kind, referenceHandlers(reference)!])),
    commands: new Map(commands.map((command) => [command.name, commandHandlers(command)!])),
    messageActions: new Map(messageActions.map((action) => [action.id, messageActionHandlers(action)!])),
    events,
    schedules: new Map(schedules.map((schedule) => [schedule.name, scheduleRun(schedule)!.handler])),
    // Runners come with the definitions: an app without schedules or a queue bundles neither runner.
    ...(schedules.length > 0 ? { fireSchedule: scheduleRun(schedules[0])!.run } : {}),
    ...(queue ? { queue } : {}),
    // The definitions bring the runners of their deliveries (absent-pieces.ts answers for the rest).
    runners: Object.assign({}, ...[
      ...references.map((piece) => referenceHandlers(piece)!.runners),
      ...commands.map((piece) => commandHandlers(piece)!.runners),
      ...messageActions.map((piece) => messageActionHandlers(piece)!.runners),
    ]),
  };

  const manifest = buildManifest(config, {
    blocks, references, messageActions, commands, events, schedules, queue: config.queue, mcp: config.mcp,
    referenceScopes: [...tables.references.values()].flatMap((handlers) => handlers.scopes),
    invocationScopes: [...tables.commands.values(), ...tables.messageActions.values()].flatMap((handlers) => handlers.scopes),
  });

  const routes = config.routes;
  const router = typeof routes === 'object' && routes !== null ? compileRoutes(routes) : undefined;
  if (routes !== undefined && !router && typeof routes !== 'function') throw new AppDefinitionError(['routes'], 'routes are { "METHOD /path": handler } or one fetch-style function');
  const envDeclarations = config.env ?? {};
  const log = options.logger ?? consoleLogger;
  const deliveryDeps: DeliveryDeps = {
    log,
    now: options.now ?? Date.now,
    seen: options.seen === false ? null : options.seen ?? createSeenStore(),
    versions: options.versions === false ? null : options.versions ?? createVersionStore(),
    fetch: options.fetch,
    maxBodyBytes: options.maxDeliveryBytes ?? 4 * 1024 * 1024,
  };

  async function serveOther(request: Request, rawEnv: AppEnv, execution: ExecutionContextLike): Promise<Response> {
    const env = readEnv(envDeclarations, rawEnv);
    if (!env.ok) {
      log.error(`Environment variable ${env.key}: ${env.message}`);
      return jsonResponse({ error: 'env-invalid', message: `Environment variable ${env.key}: ${env.message}` }, 500);
    }
    const deps: ContextDeps = { env: env.env, log, fetch: options.fetch, execution };
    const { pathname } = new URL(request.url);
    if (mcp?.serves && pathname === mcp.path) return mcp.serve(request, mcp, deps);
    if (typeof routes === 'function') return routes(request, env.env, execution);
    const match = router?.match(request.method, pathname) ?? { kind: 'none' as const };
    if (match.kind === 'none') return jsonResponse({ error: 'not-found' }, 404);
    if (match.kind === 'method-not-allowed') return new Response(null, { status: 405, headers: { allow: match.allow.join(', ') } });
    const api = lazyClient(deps, undefined);
    const ctx = extendContext({ params: match.params, env: env.env, log, waitUntil: waitUntilOf(deps) }, {
      get api() {
        return api();
      },
    });
    const response = await match.handler(request, ctx);
    // Duck-typed: a Response from another realm or fetch implementation is still a response.
    if (typeof response !== 'object' || response === null || typeof (response as Response).status !== 'number' || !('headers' in response)) throw new TypeError(`The route for ${request.method} ${pathname} did not return a Response`);
    return response;
  }

  const app: App = {
    manifest,
    async fetch(request, env = {}, ctx = {}) {
      try {
        if (isDelivery(request)) return await handleDelivery(request, env, ctx, tables, envDeclarations, deliveryDeps);
        return await serveOther(request, env, ctx);
      } catch (error) {
        // The method and path (as the client sent it) in the message; the error as data beside it.
        log.error(`Request failed: ${request.method} ${requestPath(request)}`, { error: describeError(error) });
        return jsonResponse({ error: 'internal', message: 'The app failed to handle the request' }, 500);
      }
    },
    toJSON: () => manifest,
  };
  return Object.freeze(app);
}
