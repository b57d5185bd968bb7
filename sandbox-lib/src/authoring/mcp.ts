/**
 * @module authoring/mcp
 * `defineMcp` and `defineTool`: the app's MCP server as the manifest lists it (`url`, `auth`, and
 * each tool's hints, which access widening reads), and, when tools have handlers, served by the
 * app itself at the path of `url` (see `mcp-server.ts`). A served server whose `auth` is not
 * `none` must say how it checks callers (`authorize`): an open server by mistake is refused here.
 */
import type { McpDefinition } from '../manifest/index.ts';
import { AppDefinitionError } from './errors.ts';
import { handleMcp } from './mcp-server.ts';
import { toJsonSchema, type SchemaInput } from './schema.ts';
import type { McpConfig, McpHandlers, McpTool, McpToolConfig } from './mcp-types.ts';

export type { McpConfig, McpHandlers, McpTool, McpToolConfig, McpToolContext, McpToolOutput } from './mcp-types.ts';

const MCP = Symbol.for('platform.authoring.mcp');
const HANDLERS = Symbol.for('platform.authoring.mcpHandlers');

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
