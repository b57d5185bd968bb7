/**
 * @module messaging/references/images
 * The images of a reference's fields, copied before they are stored, like every tree's: the
 * block's tree (apps/assets/copy.ts) and `icon` when it is a URL. An image that fails its checks
 * refuses the fields with that limit's message at the image's path (below `fields`).
 */
import { isAssetId, type PathSegment } from '@platform/sdk';
import type { CopyBudget, ImageCopier } from '../../apps/assets/copy.ts';

type Fields = { icon?: string | null; block?: { tree: Record<string, unknown>; actions: unknown } | null } & Record<string, unknown>;

export type CopiedFields<F> = { ok: true; fields: F } | { ok: false; message: string; path: PathSegment[] };

/**
 * @example
 * const copied = await copyReferenceImages(images, body.fields);
 * if (!copied.ok) throw invalidRequest([{ path: ['fields', ...copied.path], message: copied.message }]);
 */
export async function copyReferenceImages<F extends Fields>(images: ImageCopier, fields: F, budget: CopyBudget = {}): Promise<CopiedFields<F>> {
  let out: F = fields;
  if (fields.block != null) {
    const copied = await images.copyTree(fields.block.tree, budget);
    if (!copied.ok) return { ok: false, message: copied.message, path: ['block', 'tree', ...copied.path] };
    out = { ...out, block: { ...fields.block, tree: copied.tree } };
  }
  if (typeof fields.icon === 'string' && /^https:\/\//i.test(fields.icon) && !isAssetId(fields.icon)) {
    const copied = await images.copyUrl(fields.icon, budget);
    if (!copied.ok) return { ok: false, message: copied.message, path: ['icon'] };
    out = { ...out, icon: copied.assetId };
  }
  return { ok: true, fields: out };
}
