/**
 * @module catalog/builders/prose
 * Builders for rich text: a `ui.prose` of paragraphs, headings, lists, quotes and code blocks.
 */
import { type Draft, type Inline, type WithAudience, audienceOf, inline, node } from './core.ts';

/**
 * Rich text (10,000 characters over all its nodes).
 * @example ui.prose([ui.heading(2, 'Notes'), ui.paragraph(['See ', ui.link('the RFC', 'https://rfc.example.com/9')]), ui.bulletList([['One'], ['Two']])])
 */
export function prose(children: readonly Draft[], options?: WithAudience): Draft {
  return node('uiProse', { audience: audienceOf(options) }, children);
}

/** A paragraph. @example ui.paragraph(['Hello ', ui.bold('world')]) */
export function paragraph(content: Inline | readonly Inline[]): Draft {
  return node('paragraph', {}, inline(content));
}

/** A heading, level 1 to 3; never in a list or quote. @example ui.heading(2, 'Summary') */
export function heading(level: 1 | 2 | 3, content: Inline | readonly Inline[]): Draft {
  return node('heading', { level }, inline(content));
}

/** An item's content: text (one paragraph) or nodes (a paragraph first, then paragraphs or a nested list). */
export type ListItemContent = Inline | readonly Inline[] | readonly Draft[];

function isDrafts(content: ListItemContent): content is readonly Draft[] {
  return Array.isArray(content) && content.length > 0 && typeof content[0] === 'object' && (content[0] as Draft).type !== 'text';
}

/** A list item. @example ui.listItem([ui.paragraph('Parent'), ui.bulletList(['Child'])]) */
export function listItem(content: ListItemContent): Draft {
  return node('listItem', {}, isDrafts(content) ? content : [paragraph(content as Inline | readonly Inline[])]);
}

const items = (list: readonly (ListItemContent | Draft)[]): Draft[] =>
  list.map((entry) => (typeof entry === 'object' && !Array.isArray(entry) && (entry as Draft).type === 'listItem' ? (entry as Draft) : listItem(entry as ListItemContent)));

/** A bullet list (lists nest at most 2 levels). @example ui.bulletList(['Milk', ui.listItem([ui.paragraph('Fruit'), ui.bulletList(['Apples'])])]) */
export function bulletList(list: readonly (ListItemContent | Draft)[]): Draft {
  return node('bulletList', {}, items(list));
}

/** A numbered list. @example ui.orderedList(['Build', 'Test', 'Ship'], 1) */
export function orderedList(list: readonly (ListItemContent | Draft)[], start?: number): Draft {
  return node('orderedList', { start }, items(list));
}

/** A quote of paragraphs or lists; never holds another quote. @example ui.blockquote([ui.paragraph('Measure twice.')]) */
export function blockquote(children: readonly Draft[]): Draft {
  return node('blockquote', {}, children);
}

/** A code block (plain text, needs visible text). @example ui.codeBlock('npm run deploy', 'sh') */
export function codeBlock(code: string, language?: string): Draft {
  return node('codeBlock', { language }, inline(code));
}
