/**
 * @module authoring/mcp
 * `defineMcp` and `defineTool`: the app's MCP server as the manifest lists it (`url`, `auth`, and
 * each tool's hints, which access widening reads), and, when tools have handlers, served by the
 * app itself at the path of `url` (see `mcp-server.ts`). A served server whose `auth` is not
 * `none` must say how it checks callers (`authorize`): an open server by mistake is refused here.
 */
import type { McpDefinition } from '../manifest/index.ts';
import type { PlatformClient } from '../client/index.ts';
import { AppDefinitionError } from './errors.ts';
import type { AppEnv, ContextDeps } from './context.ts';
import { handleMcp } from './mcp-server.ts';
import type { Logger } from './logger.ts';
import { toJsonSchema, type Infer, type SchemaInput } from './schema.ts';
import type { JsonSchema } from '../manifest/index.ts';

const MCP = Symbol.for('platform.authoring.mcp');
const HANDLERS = Symbol.for('platform.authoring.mcpHandlers');

type MaybePromise<T> = T | Promise<T>;

export interface McpToolContext<A = Record<string, unknown>> {
  readonly args: A;
  readonly request: Request;
  /** What `authorize` answered for this request (`true` when the server is open). */
  readonly auth: unknown;
  readonly env: AppEnv;
  readonly log: Logger;
  readonly api: PlatformClient;
  waitUntil(promise: Promise<unknown>): void;
}

/** A tool's answer: text, an MCP result (`{ content, isError? }`), or JSON (sent as structured content). */
export type McpToolOutput = string | { content: ReadonlyArray<Record<string, unknown>>; isError?: boolean } | Record<string, unknown>;

export interface McpToolConfig<I extends SchemaInput | undefined = undefined> {
  readonly name: string;
  readonly description?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  /** The arguments (an object schema). */
  readonly input?: I;
  /** Absent when the server is hosted elsewhere and the tool is only declared. */
  readonly handler?: (ctx: McpToolContext<I extends SchemaInput ? Infer<I> : Record<string, unknown>>) => MaybePromise<McpToolOutput>;
}

export interface McpTool {
  readonly name: string;
  readonly config: McpToolConfig<SchemaInput | undefined>;
  readonly inputSchema: JsonSchema;
}

/**
 * Defines an MCP tool.
 * @example defineTool({ name: 'count', description: 'Current count', readOnly: true, handler: () => '42' })
 */
export function defineTool<const I extends SchemaInput | undefined = undefined>(config: McpToolConfig<I>): McpTool {
  const where = ['mcp', 'tools', typeof config?.name === 'string' ? config.name : '?'];
  if (config.handler !== undefined && typeof config.handler !== 'function') throw new AppDefinitionError([...where, 'handler'], 'must be a function');
  const inputSchema = config.input === undefined ? { type: 'object' } : toJsonSchema(config.input, 'input', [...where, 'input']);
  return Object.freeze({ name: config.name, config: config as McpToolConfig<SchemaInput | undefined>, inputSchema });
}

export interface McpConfig {
  /** Where the server answers (`https://`); when the app serves tools itself, the path of this URL is theirs. */
  readonly url: string;
  readonly auth: 'oauth' | 'platform' | 'none';
  readonly tools?: readonly McpTool[];
  /** Server name and version for `initialize`. */
  readonly name?: string;
  readonly version?: string;
  /** Checks a caller; a falsy answer is `401`. Required when the app serves tools and `auth` is not `none`. */
  readonly authorize?: (request: Request, env: AppEnv) => MaybePromise<unknown>;
}

export interface McpHandlers {
  /**
   * Answers a request to the server's path (`mcp-server.ts`). Reached through the definition, so
   * only an app that calls `defineMcp` bundles the JSON-RPC server.
   */
  readonly serve: (request: Request, mcp: McpHandlers, deps: ContextDeps) => Promise<Response>;
  readonly path: string;
  readonly serves: boolean;
  readonly tools: ReadonlyMap<string, McpTool>;
  readonly name: string;
  readonly version: string;
  readonly authorize?: McpConfig['authorize'];
  readonly open: boolean;
}

export interface Mcp {
  readonly [MCP]: true;
  readonly manifest: McpDefinition;
  readonly [HANDLERS]: McpHandlers;
  toJSON(): McpDefinition;
}

/**
 * Defines the app's MCP server.
 * @example
 * const mcp = defineMcp({ url: 'https://polls.example.com/mcp', auth: 'none',
 *   tools: [defineTool({ name: 'open-polls', readOnly: true, handler: () => 'No open polls' })] });
 */
export function defineMcp(config: McpConfig): Mcp {
  let path = '/';
  try {
    path = new URL(config.url).pathname;
  } catch {
    // validateManifest reports the URL with its path in the manifest.
  }
  const tools = new Map<string, McpTool>();
  for (const tool of config.tools ?? []) tools.set(tool.name, tool);
  const serves = [...tools.values()].some((tool) => tool.config.handler !== undefined);
  if (serves && config.auth !== 'none' && typeof config.authorize !== 'function') {
    throw new AppDefinitionError(['mcp', 'authorize'], `auth is "${config.auth}": give authorize(request, env) so the served tools are not open to anyone`);
  }
  const manifest: McpDefinition = {
    url: config.url,
    auth: config.auth,
    ...(config.tools !== undefined ? {
      tools: config.tools.map(({ name, config: tool }) => ({
        name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        hints: { readOnly: tool.readOnly === true, destructive: tool.destructive === true, idempotent: tool.idempotent === true },
      })),
    } : {}),
  };
  const handlers: McpHandlers = {
    serve: handleMcp, path, serves, tools, name: config.name ?? 'app', version: config.version ?? '1.0.0', authorize: config.authorize, open: config.auth === 'none',
  };
  const mcp = { [MCP]: true as const, manifest, toJSON: () => manifest };
  Object.defineProperty(mcp, HANDLERS, { value: handlers, enumerable: false });
  return Object.freeze(mcp) as Mcp;
}

/** The handlers of a defined MCP server, or `undefined`. */
export function mcpHandlers(value: unknown): McpHandlers | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP] === true ? (value as Mcp)[HANDLERS] : undefined;
}
