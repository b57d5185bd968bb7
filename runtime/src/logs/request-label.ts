/**
 * @module logs/request-label
 * What a request's `request` log line calls it: `GET /path` for a route, the delivery's type
 * (`post.created`, `block.action`) or the MCP method. Read from the first bytes of the body with a
 * pattern, not by parsing it: the envelope is the control plane's and names its type near the start.
 */

const MAX_LABEL = 200;
const HEAD = 512;
const TYPE = /"type"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"/;
const METHOD = /"method"\s*:\s*"([A-Za-z0-9_./:-]{1,64})"/;

/** `GET /items/7` (no query: it may carry tokens). */
export function routeLabel(method: string, path: string): string {
  const label = `${method} ${path}`;
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL)}…` : label;
}

/** The delivery type of a lifecycle or interactive delivery, the JSON-RPC method of an MCP request. */
export function deliveryLabel(kind: string, body: string | Buffer | null): string {
  if (body === null) return kind;
  const head = typeof body === 'string' ? body.slice(0, HEAD) : body.subarray(0, HEAD).toString('latin1');
  const found = (kind === 'mcp' ? METHOD : TYPE).exec(head);
  return found === null ? kind : `${kind === 'mcp' ? 'mcp ' : ''}${found[1]}`;
}
