/**
 * @module authoring/mcp-server
 * The app's MCP server over HTTP (the Streamable HTTP transport, answering JSON, no server-sent
 * stream): `initialize`, `ping`, `tools/list`, `tools/call`; notifications get `202`. One JSON-RPC
 * message per request (batches were dropped from the protocol). Tool failures are tool results
 * with `isError`, as the protocol asks; their details go to the log, not to the caller.
 */
import { describeError, lazyClient, waitUntilOf, type ContextDeps } from './context.ts';
import type { McpHandlers, McpToolOutput } from './mcp-types.ts';
import { parseWith } from './schema.ts';
import { readBody } from './http.ts';

const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'];
const MAX_BODY_BYTES = 1024 * 1024;

type Id = string | number | null;

const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const rpcError = (id: Id, code: number, message: string, status = 200): Response => json({ jsonrpc: '2.0', id, error: { code, message } }, status);
const rpcResult = (id: Id, result: unknown): Response => json({ jsonrpc: '2.0', id, result });

/**
 * Answers one MCP request.
 * @example if (url.pathname === mcp.path) return handleMcp(request, mcp, deps);
 */
export async function handleMcp(request: Request, mcp: McpHandlers, deps: ContextDeps): Promise<Response> {
  if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
  let auth: unknown = true;
  if (!mcp.open) {
    try {
      auth = await mcp.authorize?.(request, deps.env);
    } catch (error) {
      deps.log.warn('MCP authorize threw; answering 401', { error: describeError(error) });
      auth = undefined;
    }
    if (!auth) return rpcError(null, -32001, 'Unauthorized', 401);
  }
  const body = await readBody(request, MAX_BODY_BYTES);
  if (!body.ok) return rpcError(null, -32600, 'Request body too large', 413);
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch {
    return rpcError(null, -32700, 'Parse error', 400);
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return rpcError(null, -32600, 'Send one JSON-RPC message per request', 400);
  const { jsonrpc, id, method, params } = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (jsonrpc !== '2.0' || typeof method !== 'string') return rpcError(null, -32600, 'Invalid request', 400);
  if (id === undefined) return new Response(null, { status: 202 }); // A notification (notifications/initialized, cancelled, ...).
  if (typeof id !== 'string' && typeof id !== 'number') return rpcError(null, -32600, 'Invalid id', 400);
  const args = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;

  switch (method) {
    case 'initialize': {
      const asked = typeof args.protocolVersion === 'string' ? args.protocolVersion : '';
      return rpcResult(id, {
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: mcp.name, version: mcp.version },
      });
    }
    case 'ping':
      return rpcResult(id, {});
    case 'tools/list':
      return rpcResult(id, {
        tools: [...mcp.tools.values()].filter((tool) => tool.config.handler).map(({ name, config, inputSchema }) => ({
          name,
          ...(config.description !== undefined ? { description: config.description } : {}),
          inputSchema,
          annotations: { readOnlyHint: config.readOnly === true, destructiveHint: config.destructive === true, idempotentHint: config.idempotent === true },
        })),
      });
    case 'tools/call':
      return callTool(id, request, mcp, deps, args, auth);
    default:
      return rpcError(id, -32601, `Method not found: ${method.slice(0, 100)}`);
  }
}

async function callTool(id: Id, request: Request, mcp: McpHandlers, deps: ContextDeps, params: Record<string, unknown>, auth: unknown): Promise<Response> {
  const name = typeof params.name === 'string' ? params.name : '';
  const tool = mcp.tools.get(name);
  const handler = tool?.config.handler;
  if (!tool || !handler) return rpcError(id, -32602, `Unknown tool: ${name.slice(0, 100)}`);
  const parsed = parseWith(tool.config.input, params.arguments ?? {});
  if (!parsed.ok) return rpcError(id, -32602, `Invalid arguments at ${parsed.path.join('.') || '(root)'}: ${parsed.message}`);
  const api = lazyClient(deps, undefined);
  try {
    const output = await handler({
      args: parsed.value as Record<string, unknown>,
      request,
      auth,
      env: deps.env,
      log: deps.log,
      get api() {
        return api();
      },
      waitUntil: waitUntilOf(deps),
    });
    return rpcResult(id, toolResult(output));
  } catch (error) {
    deps.log.error(`MCP tool ${name} threw`, { error: describeError(error) });
    return rpcResult(id, { content: [{ type: 'text', text: `The tool ${name} failed` }], isError: true });
  }
}

function toolResult(output: McpToolOutput): Record<string, unknown> {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (typeof output === 'object' && output !== null && Array.isArray((output as { content?: unknown }).content)) return output as Record<string, unknown>;
  const text = JSON.stringify(output ?? null);
  return typeof output === 'object' && output !== null && !Array.isArray(output)
    ? { content: [{ type: 'text', text }], structuredContent: output }
    : { content: [{ type: 'text', text }] };
}
