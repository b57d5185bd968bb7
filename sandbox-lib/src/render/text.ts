/**
 * @module render/text
 * Text runs with their marks, and the plain text of a node (for labels and summaries).
 */
import type { UiMark, UiNode } from '../catalog/kit/types.ts';
import { el, esc, safeHref } from './html.ts';

const WRAP: Readonly<Record<string, string>> = { bold: 'strong', italic: 'em', strike: 's', code: 'code' };

function markUp(text: string, marks: readonly UiMark[] | undefined, links: boolean): string {
  let out = esc(text);
  for (const mark of marks ?? []) {
    if (mark.type === 'link') {
      const href = safeHref(mark.attrs?.href);
      if (links && href !== null) out = el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, out);
    } else if (typeof mark.type === 'string' && Object.hasOwn(WRAP, mark.type)) {
      out = el(WRAP[mark.type]!, {}, out);
    }
  }
  return out;
}

/** The runs of a text container. `links: false` inside an element that is itself a link. */
export function runs(content: readonly UiNode[] | undefined, links = true): string {
  return (content ?? []).map((n) => (n.type === 'text' && 'text' in n ? markUp(n.text, n.marks, links) : '')).join('');
}

/** Plain text of a subtree (text nodes only). */
export function plain(content: readonly UiNode[] | undefined): string {
  return (content ?? []).map((n) => ('text' in n ? n.text : plain(n.content))).join('');
}
