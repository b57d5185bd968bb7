/**
 * @module apps/assets/copy
 * The images a tree names, copied (spec, Tree rule 6: "Image `src` and `avatarSrc` URLs are copied
 * by the service, which stores asset ids instead"). Each URL is fetched once through the outbound
 * guard (handed in: `deliveries/outbound/fetch-image.ts`), checked by its bytes and stored by
 * content; a URL copied within the reuse window is not fetched again, and the same bytes from
 * another URL are the same asset. A tree's copies run side by side, so a tree waits at most one
 * download (4 s). An image that fails a check refuses the whole tree with that limit's message at
 * the image's path, as every other limit does (docs/decisions/assets.md).
 */
import { isAssetId, treeImages, withImages, type PathSegment } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { AssetService } from './service.ts';
import { copiesOf, rememberCopy } from './store.ts';

/** One download of an image URL (the guarded fetch of the deliveries area). */
export type FetchImage = (url: string, withinMs?: number) => Promise<{ ok: true; bytes: Uint8Array } | { ok: false; message: string }>;

/** How long the copies may take: what is left of the delivery's wait (default: the 4 s download alone). */
export interface CopyBudget {
  withinMs?: number;
}

export type CopiedTree<T> = { ok: true; tree: T } | { ok: false; message: string; path: PathSegment[] };

export interface ImageCopier {
  /** The tree with every image URL replaced by the asset id of its copy, or the first image that failed. */
  copyTree<T extends Record<string, unknown>>(tree: T, budget?: CopyBudget): Promise<CopiedTree<T>>;
  /** One image URL copied (a stream event's persona avatar): its asset id, or why not. */
  copyUrl(url: string, budget?: CopyBudget): Promise<{ ok: true; assetId: string } | { ok: false; message: string }>;
}

export interface ImageCopierDeps {
  db: Db;
  clock: Clock;
  assets: AssetService;
  fetchImage: FetchImage;
  /** How long a copy of a URL is reused before the URL is fetched again. */
  reuseMs: number;
}

/**
 * @example
 * const copied = await images.copyTree(checked.tree);
 * if (!copied.ok) return refuse(copied.message, copied.path);
 */
export function createImageCopier(deps: ImageCopierDeps): ImageCopier {
  const copyFresh = async (url: string, budget: CopyBudget): Promise<{ ok: true; assetId: string } | { ok: false; message: string }> => {
    const fetched = await deps.fetchImage(url, budget.withinMs);
    if (!fetched.ok) return fetched;
    const stored = await deps.assets.store(fetched.bytes);
    if (!stored.ok) return stored;
    await rememberCopy(deps.db, url, stored.asset.id, new Date(deps.clock.now()));
    return { ok: true, assetId: stored.asset.id };
  };

  /** Asset ids by URL for every URL, copied side by side; the failures by URL. */
  const copyAll = async (urls: string[], budget: CopyBudget) => {
    const since = new Date(deps.clock.now() - deps.reuseMs);
    const known = await copiesOf(deps.db, urls, since);
    const fresh = urls.filter((u) => !known.has(u));
    const outcomes = await Promise.all(fresh.map((url) => copyFresh(url, budget)));
    const failed = new Map<string, string>();
    fresh.forEach((url, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) known.set(url, outcome.assetId);
      else failed.set(url, outcome.message);
    });
    return { ids: known, failed };
  };

  return {
    async copyTree(tree, budget = {}) {
      const images = treeImages(tree).filter((image) => !isAssetId(image.src));
      if (images.length === 0) return { ok: true, tree };
      const { ids, failed } = await copyAll([...new Set(images.map((i) => i.src))], budget);
      const first = images.find((i) => failed.has(i.src));
      if (first !== undefined) return { ok: false, message: failed.get(first.src)!, path: first.path };
      return { ok: true, tree: withImages(tree, (src) => ids.get(src) ?? src) };
    },
    async copyUrl(url, budget = {}) {
      const { ids, failed } = await copyAll([url], budget);
      const id = ids.get(url);
      return id === undefined ? { ok: false, message: failed.get(url) ?? 'The image could not be copied' } : { ok: true, assetId: id };
    },
  };
}
