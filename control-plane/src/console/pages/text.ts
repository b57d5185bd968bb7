/**
 * @module console/pages/text
 * The text of an editor document (`{ type: 'doc', content }`): paragraphs on their own lines.
 */
export function docText(node: unknown): string {
  if (typeof node !== 'object' || node === null) return '';
  const n = node as { text?: unknown; content?: unknown; type?: unknown };
  if (typeof n.text === 'string') return n.text;
  const parts = Array.isArray(n.content) ? n.content.map(docText) : [];
  return parts.join(n.type === 'doc' ? '\n' : '');
}
