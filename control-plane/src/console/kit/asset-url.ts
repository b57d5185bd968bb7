/**
 * @module console/kit/asset-url
 * Where the console's pages load an asset (a copied image, an app icon): the service's
 * `/assets/{id}` on our own origin, the only place the console's CSP lets images come from.
 */
export const assetUrl = (assetId: string): string => `/assets/${encodeURIComponent(assetId)}`;
