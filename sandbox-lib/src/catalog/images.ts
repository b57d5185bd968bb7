/**
 * @module catalog/images
 * Where a tree names images: `uiImage.src`, `uiItem.avatarSrc`, each person's `avatarSrc` in a
 * `uiAvatarStack`, and `avatarSrc` of person cells in a `uiTable`. The service copies each of them
 * and stores asset ids instead (spec, Tree rule 6); a renderer turns an asset id back into a URL
 * (`RenderOptions.assetUrl`). Trees are validated before these walks (≤ 12 levels, ≤ 250
 * components), so the recursion is bounded.
 */
import type { PathSegment } from './kit/types.ts';

type Json = Record<string, unknown>;

/** One image a tree names: where its URL sits, and the URL (or asset id) written there. */
export interface TreeImage {
  path: PathSegment[];
  src: string;
}

/** An asset id of the service: `ast_` and 52 base32 characters (the sha256 of the bytes). */
export const ASSET_ID_PATTERN = /^ast_[a-z2-7]{52}$/;

/** True when `value` is an asset id rather than a URL. */
export const isAssetId = (value: unknown): value is string => typeof value === 'string' && ASSET_ID_PATTERN.test(value);

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The attribute paths (below `attrs`) of a node that hold image URLs. */
function imageAttrs(type: unknown, attrs: Json): Array<Array<string | number>> {
  const found: Array<Array<string | number>> = [];
  if (type === 'uiImage' && typeof attrs.src === 'string') found.push(['src']);
  if (type === 'uiItem' && typeof attrs.avatarSrc === 'string') found.push(['avatarSrc']);
  if (type === 'uiAvatarStack' && Array.isArray(attrs.people)) {
    attrs.people.forEach((p, i) => {
      if (isRecord(p) && typeof p.avatarSrc === 'string') found.push(['people', i, 'avatarSrc']);
    });
  }
  if (type === 'uiTable' && Array.isArray(attrs.rows)) {
    attrs.rows.forEach((row, r) => {
      if (!isRecord(row) || !Array.isArray(row.cells)) return;
      row.cells.forEach((cell, c) => {
        if (isRecord(cell) && typeof cell.avatarSrc === 'string') found.push(['rows', r, 'cells', c, 'avatarSrc']);
      });
    });
  }
  return found;
}

const at = (value: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], value);

/**
 * Every image of a tree, in document order, each with its path from the root (as `validateTree`
 * paths read: `content`, index, …, `attrs`, `src`).
 * @example treeImages(tree) // [{ path: ['content', 1, 'attrs', 'src'], src: 'https://cdn.example.com/a.png' }]
 */
export function treeImages(tree: unknown): TreeImage[] {
  const found: TreeImage[] = [];
  const visit = (node: unknown, path: PathSegment[]): void => {
    if (!isRecord(node)) return;
    if (isRecord(node.attrs)) {
      for (const sub of imageAttrs(node.type, node.attrs)) found.push({ path: [...path, 'attrs', ...sub], src: at(node.attrs, sub) as string });
    }
    if (Array.isArray(node.content)) node.content.forEach((child, i) => visit(child, [...path, 'content', i]));
  };
  visit(tree, []);
  return found;
}

/**
 * A copy of the tree with each image's URL replaced by `replace(src)` (the tree itself is left
 * alone; parts without images are shared).
 * @example withImages(tree, (src) => copies.get(src)!)
 */
export function withImages<T>(tree: T, replace: (src: string) => string): T {
  const visit = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    let out: Json = node;
    if (isRecord(node.attrs)) {
      const subs = imageAttrs(node.type, node.attrs);
      if (subs.length > 0) {
        const attrs = structuredClone(node.attrs);
        for (const sub of subs) {
          const parent = at(attrs, sub.slice(0, -1)) as Record<string | number, unknown>;
          const key = sub.at(-1)!;
          parent[key] = replace(parent[key] as string);
        }
        out = { ...out, attrs };
      }
    }
    if (Array.isArray(node.content)) {
      const content = node.content.map(visit);
      if (content.some((c, i) => c !== (node.content as unknown[])[i])) out = { ...out, content };
    }
    return out;
  };
  return visit(tree) as T;
}
