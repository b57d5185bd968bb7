/**
 * @module catalog
 * Block UI catalog v1: the registry of components, `validateTree`, and the builders app authors use
 * to write trees (`ui.*`, `renderTree`). See docs/catalog.md for every component.
 */
export { validateTree } from './validate/validate-tree.ts';
export { hiddenFrom, treeForMember } from './audience.ts';
export { treeImages, withImages, isAssetId, ASSET_ID_PATTERN, type TreeImage } from './images.ts';
export { CATALOG_VERSION } from './spec/registry.ts';
export { ICONS, RESERVED_ICONS } from './rules/icons.ts';
export type { ActionEntry, ActionRef, ActionTable, TreeValidation, UiBlockNode, UiElementNode, UiMark, UiNode, UiTextNode } from './kit/types.ts';
export { ui, renderTree, type RenderedTree, type ActionCall, type ActionInput, type Draft, type Inline } from './builders/index.ts';
