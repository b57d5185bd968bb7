/**
 * @module console/kit/app-icon
 * An app's icon beside its name: the asset its manifest names, loaded from our origin like every
 * image the console shows. Decorative (`alt=""`): the name beside it says which app it is.
 */
import { esc } from '@platform/sdk/render';
import { assetUrl } from './asset-url.ts';

/** The icon's markup, or nothing when the app has none. */
export function appIcon(icon: string | null | undefined): string {
  return icon == null ? '' : `<img class="app-icon" src="${esc(assetUrl(icon))}" alt="" width="20" height="20">`;
}
