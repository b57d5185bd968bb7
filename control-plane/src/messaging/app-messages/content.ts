/**
 * @module messaging/app-messages/content
 * What an app may say. The wire schemas (sandbox-lib) only check that `content` is an object with a
 * `type`; the document itself is judged here with the messages feature's own `Document` schema, so
 * an app's message is held to exactly the rules a member's is.
 *
 * - Replies: a document members could post; a bad one is a 400 `PlatformApiInvalidRequestError`
 *   with `issues` under `content`.
 * - Stream events: the spec's `PlatformAppStreamInvalidPayloadError` with a `reason`: `empty` (no
 *   visible text: an empty document, blank markdown), `invalid_document` (not an editor document),
 *   `unsupported_node` (mentions, files and images, which the spec refuses in stream content).
 */
import { PlatformError, invalidRequest } from '@platform/sdk';
import { plainText } from '../../workspace/events/content.ts';
import { toRequestIssues } from '../../core/http/read-json.ts';
import { Document } from '../../workspace/messages/schemas.ts';

/** A message body as stored: exactly one of the two is set. */
export interface AppMessageBody {
  content: Document | null;
  markdown: string | null;
}

/** Node types a stream event's document may not hold (spec: "mentions, files and images not allowed"). */
export const STREAM_REFUSED_NODES: ReadonlySet<string> = new Set(['mention', 'file', 'image']);

/**
 * @example
 * const content = replyDocument(body.content); // throws the 400 with issues under `content`
 */
export function replyDocument(value: unknown): Document {
  const parsed = Document.safeParse(value);
  if (!parsed.success) {
    throw invalidRequest(toRequestIssues(parsed.error).map((issue) => ({ ...issue, path: ['content', ...issue.path] })), 'The content is not a valid document');
  }
  return parsed.data;
}

type Reason = 'invalid_document' | 'unsupported_node' | 'empty';

function invalidPayload(reason: Reason, message: string, path: Array<string | number>): PlatformError {
  return new PlatformError('PlatformAppStreamInvalidPayloadError', message, { path, fields: { reason } });
}

/** The path of the first refused node, walked without recursion (depth is capped by `Document`, but cheaply guarded anyway). */
function refusedNode(doc: Document): { type: string; path: Array<string | number> } | null {
  const stack: Array<{ node: { type: string; content?: unknown }; path: Array<string | number> }> = [{ node: doc, path: ['content'] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (STREAM_REFUSED_NODES.has(node.type)) return { type: node.type, path };
    if (!Array.isArray(node.content)) continue;
    for (let i = node.content.length - 1; i >= 0; i--) stack.push({ node: node.content[i] as { type: string }, path: [...path, 'content', i] });
  }
  return null;
}

/**
 * The body of a stream event, or the spec's 400 with its reason. The request schema has already
 * made sure exactly one of `content` and `markdown` is present.
 *
 * @example
 * streamBody({ markdown: 'Deploy finished' }); // { content: null, markdown: 'Deploy finished' }
 */
export function streamBody(body: { content?: unknown; markdown?: string | undefined }): AppMessageBody {
  if (body.markdown !== undefined) {
    if (body.markdown.trim() === '') throw invalidPayload('empty', 'The markdown has no visible text', ['markdown']);
    return { content: null, markdown: body.markdown };
  }
  const raw = body.content as { type?: unknown; content?: unknown };
  if (raw.type === 'doc' && (raw.content === undefined || (Array.isArray(raw.content) && raw.content.length === 0))) {
    throw invalidPayload('empty', 'The document is empty', ['content']);
  }
  const parsed = Document.safeParse(raw);
  if (!parsed.success) {
    const first = toRequestIssues(parsed.error)[0];
    throw invalidPayload('invalid_document', `The content is not a valid document: ${first?.message ?? 'invalid'}`, ['content', ...(first?.path ?? [])]);
  }
  const refused = refusedNode(parsed.data);
  if (refused !== null) throw invalidPayload('unsupported_node', `Stream events cannot hold ${refused.type} nodes`, refused.path);
  if (plainText({ content: parsed.data }) === '') throw invalidPayload('empty', 'The document has no visible text', ['content']);
  return { content: parsed.data, markdown: null };
}
