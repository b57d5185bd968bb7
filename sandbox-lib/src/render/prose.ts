/**
 * @module render/prose
 * The editor's rich-text nodes inside `uiProse`. Headings start at level 4: a block sits under the
 * page's own headings (the block's title is an h3).
 */
import { el, esc } from './html.ts';
import { plain, runs } from './text.ts';
import { type Kids, type Render } from './types.ts';

const wrap = (tag: string): Render => (node, ctx, kids: Kids) => el(tag, {}, kids(node.content, ctx));

export const proseRenderers: Record<string, Render> = {
  uiProse: (node, ctx, kids) => el('div', { class: 'pb-prose' }, kids(node.content, ctx)),
  paragraph: (node) => el('p', {}, runs(node.content)),
  heading: (node) => {
    const level = node.attrs?.level === 1 ? 4 : node.attrs?.level === 2 ? 5 : 6;
    return el(`h${level}`, {}, runs(node.content));
  },
  bulletList: wrap('ul'),
  orderedList: (node, ctx, kids) => el('ol', { start: typeof node.attrs?.start === 'number' ? node.attrs.start : null }, kids(node.content, ctx)),
  listItem: wrap('li'),
  blockquote: wrap('blockquote'),
  codeBlock: (node) => el('pre', {}, el('code', { 'data-language': typeof node.attrs?.language === 'string' ? node.attrs.language : null }, esc(plain(node.content)))),
};
