/**
 * @module messaging/app-messages/images
 * Images in a document an app posts (`image` nodes of a reply's content): each `attrs.src` URL is
 * copied (apps/assets/copy.ts) and the document stores the URL of our copy,
 * `{publicUrl}/assets/{id}`, so members load it from us. An image that fails the copied-image
 * checks refuses the reply with that limit's message at the node's `src`.
 */
import { invalidRequest, type PathSegment } from '@platform/sdk';
import type { ImageCopier } from '../../apps/assets/copy.ts';

type Node = { type?: unknown; attrs?: Record<string, unknown>; content?: unknown[] } & Record<string, unknown>;

/** Every `image` node's `src` URL with its path, in document order (documents nest ≤ 64 levels). */
function imageSources(node: Node, path: PathSegment[], found: Array<{ path: PathSegment[]; src: string }>): void {
  if (node.type === 'image' && typeof node.attrs?.src === 'string') found.push({ path: [...path, 'attrs', 'src'], src: node.attrs.src });
  node.content?.forEach((child, i) => {
    if (typeof child === 'object' && child !== null) imageSources(child as Node, [...path, 'content', i], found);
  });
}

function replaced(node: Node, urls: Map<string, string>): Node {
  const out: Node = { ...node };
  if (node.type === 'image' && typeof node.attrs?.src === 'string') out.attrs = { ...node.attrs, src: urls.get(node.attrs.src) ?? node.attrs.src };
  if (Array.isArray(node.content)) out.content = node.content.map((c) => (typeof c === 'object' && c !== null ? replaced(c as Node, urls) : c));
  return out;
}

/**
 * @example
 * const stored = await withCopiedDocumentImages(images, publicUrl, content, ['content']);
 */
export async function withCopiedDocumentImages<D extends object>(images: ImageCopier, publicUrl: string, doc: D, at: PathSegment[]): Promise<D> {
  const found: Array<{ path: PathSegment[]; src: string }> = [];
  imageSources(doc as Node, [], found);
  if (found.length === 0) return doc;
  const sources = [...new Set(found.map((f) => f.src))];
  const copies = await Promise.all(sources.map((src) => images.copyUrl(src)));
  const urls = new Map<string, string>();
  for (const [i, copied] of copies.entries()) {
    if (!copied.ok) {
      const first = found.find((f) => f.src === sources[i])!;
      throw invalidRequest([{ path: [...at, ...first.path], message: copied.message, code: 'image_not_copied' }], copied.message);
    }
    urls.set(sources[i]!, `${publicUrl}/assets/${copied.assetId}`);
  }
  return replaced(doc as Node, urls) as D;
}
