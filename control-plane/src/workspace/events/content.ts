/**
 * @module workspace/events/content
 * What a message says, as events need it: its plain text, the links it carries and the apps it
 * names. A message is markdown or an editor document (`{ type: 'doc', content }`).
 *
 * - Links: `https://` URLs in the text (markdown link targets included) and the `href` of `link`
 *   marks in documents; trailing punctuation is not part of a URL; each URL counts once.
 * - Mentions: `@slug` in the text (not inside a word or an e-mail address), and document nodes
 *   `{ type: 'mention', attrs: { kind: 'app', id } }` where `id` is the app's id or slug.
 *
 * Work is bounded: at most `MAX_LINKS` links and `MAX_MENTIONS` mentions per message are read.
 */
import { LIMITS } from '@platform/sdk';

export const MAX_LINKS = 100;
export const MAX_MENTIONS = 50;

export interface MessageBody {
  content?: unknown;
  markdown?: string | null | undefined;
}

interface DocNode {
  type?: unknown;
  text?: unknown;
  attrs?: Record<string, unknown>;
  marks?: Array<{ type?: unknown; attrs?: Record<string, unknown> }>;
  content?: unknown;
}

// Block nodes end a line in the plain text; everything else is inline.
const BLOCKS = new Set(['paragraph', 'heading', 'blockquote', 'codeBlock', 'listItem', 'bulletList', 'orderedList', 'hardBreak']);
const URL_IN_TEXT = /https:\/\/[^\s<>"'`()[\]{}]+/g;
const TRAILING = /[.,;:!?*_~]+$/;
const MENTION = /(^|[^A-Za-z0-9_.@-])@([a-z0-9][a-z0-9-]{1,31})(?![A-Za-z0-9_-])/g;

const isNode = (v: unknown): v is DocNode => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Walks a document depth-first without recursion (documents are nested at most a bounded depth, but hostile input is cheap to guard). */
function walk(doc: unknown, visit: (node: DocNode) => void): void {
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isNode(node)) continue;
    visit(node);
    if (Array.isArray(node.content)) for (let i = node.content.length - 1; i >= 0; i--) stack.push(node.content[i]);
  }
}

/**
 * The message as plain text: markdown as written; a document's text nodes, one line per block.
 * @example plainText({ markdown: 'Ship it' }) // 'Ship it'
 */
export function plainText(body: MessageBody): string {
  if (typeof body.markdown === 'string') return body.markdown;
  const parts: string[] = [];
  walk(body.content, (node) => {
    if (node.type === 'text' && typeof node.text === 'string') parts.push(node.text);
    else if (node.type === 'mention' && typeof node.attrs?.label === 'string') parts.push(`@${node.attrs.label}`);
    else if (typeof node.type === 'string' && BLOCKS.has(node.type) && parts.length > 0 && !parts[parts.length - 1]!.endsWith('\n')) parts.push('\n');
  });
  return parts.join('').trim();
}

function urlsIn(text: string, into: Set<string>): void {
  for (const match of text.matchAll(URL_IN_TEXT)) {
    if (into.size >= MAX_LINKS) return;
    const url = match[0].replace(TRAILING, '');
    if (url.length > 'https://'.length && url.length <= LIMITS.references.urlLength) into.add(url);
  }
}

/**
 * The distinct `https://` links of a message, in order of appearance.
 * @example links({ markdown: 'See https://tracker.example.com/acme/issues/42.' }) // ['https://tracker.example.com/acme/issues/42']
 */
export function links(body: MessageBody): string[] {
  const found = new Set<string>();
  if (typeof body.markdown === 'string') {
    urlsIn(body.markdown, found);
    return [...found];
  }
  walk(body.content, (node) => {
    if (node.type === 'text' && typeof node.text === 'string') urlsIn(node.text, found);
    for (const mark of node.marks ?? []) {
      const href = mark?.type === 'link' ? mark.attrs?.href : undefined;
      if (typeof href === 'string' && found.size < MAX_LINKS) urlsIn(href, found);
    }
  });
  return [...found];
}

/**
 * The apps a message names: slugs from `@slug` and slugs or ids from app mention nodes.
 * @example mentions({ markdown: 'Ask @polls-k3x9 about it' }) // Set { 'polls-k3x9' }
 */
export function mentions(body: MessageBody): Set<string> {
  const found = new Set<string>();
  const scan = (text: string) => {
    for (const match of text.matchAll(MENTION)) {
      if (found.size >= MAX_MENTIONS) return;
      found.add(match[2]!);
    }
  };
  if (typeof body.markdown === 'string') {
    scan(body.markdown);
    return found;
  }
  walk(body.content, (node) => {
    if (found.size >= MAX_MENTIONS) return;
    if (node.type === 'text' && typeof node.text === 'string') scan(node.text);
    if (node.type === 'mention' && node.attrs?.kind === 'app' && typeof node.attrs.id === 'string' && node.attrs.id.length <= 200) found.add(node.attrs.id);
  });
  return found;
}
