/**
 * @module authoring/mcp-types
 * The MCP server's definition as its definer (mcp.ts) and its JSON-RPC server (mcp-server.ts) both
 * read it: tools, their contexts and answers, and the handlers a definition carries. Below both,
 * so the definer can attach the server and the server can read the definition.
 */
import type { PlatformClient } from '../client/index.ts';
import type { JsonSchema } from '../manifest/index.ts';
import type { AppEnv, ContextDeps } from './context.ts';
import type { Logger } from './logger.ts';
import type { Infer, SchemaInput } from './schema.ts';

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
