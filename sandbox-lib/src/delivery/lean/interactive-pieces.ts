/**
 * @module delivery/lean/interactive-pieces
 * The `200` results of reference kinds, commands and message actions (`interactiveResultSchemas`)
 * as lean checks, with the shapes only they use (delivery/common.ts: invocation answers, reference
 * resolutions). Apart from the block types' checks because the SDK reaches them through the
 * definitions (`defineReference`, `defineCommand`, `defineMessageAction`): an app without such
 * pieces does not bundle them.
 */
import { LIMITS } from '../../limits/index.ts';
import { REFERENCE_ACCESS, VISIBILITIES, type InteractiveType } from '../constants.ts';
import { notice } from './common.ts';
import { array, closed, discriminated, literal, object, oneOf, optional, preprocess, str, type Check } from './check.ts';
import { actionTable, blockProps, httpsUrl, text, timestamp, typed } from './primitives.ts';

const E = LIMITS.endpoints;

export const invocationAnswer = object({
  visibility: closed(VISIBILITIES, 'private'),
  content: optional(typed),
  block: optional(object({ type: str(1), props: blockProps })),
  notice: optional(notice),
});

export const referenceStatus = object({ state: str(1, 64), label: text(LIMITS.text.statusLabel, 1) });
const treeWithActions = object({ tree: typed, actions: actionTable });

const granted = object({
  url: httpsUrl,
  access: literal('granted'),
  visibility: closed(['public', 'restricted'], 'restricted'),
  externalId: str(1, E.searchExternalIdMax),
  title: text(E.searchTitleMax, 1),
  subtitle: optional(text(E.searchSubtitleMax)),
  icon: optional(str(1, LIMITS.references.urlLength)),
  status: optional(referenceStatus),
  updatedAt: optional(timestamp),
  summary: text(LIMITS.blockTree.summary),
  block: optional(treeWithActions),
});
const denied = object({ url: str(), access: oneOf(['unauthorized', 'forbidden', 'notFound']) });
const unavailable = object({ url: str(), access: literal('unavailable') });

/** A reference resolution; an unknown `access` reads as `unavailable`. */
export const referenceResolution = preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const access = (value as { access?: unknown }).access;
    return typeof access === 'string' && !(REFERENCE_ACCESS as readonly string[]).includes(access) ? { ...value, access: 'unavailable' } : value;
  },
  discriminated('access', [['granted', granted], ['unauthorized', denied], ['forbidden', denied], ['notFound', denied], ['unavailable', unavailable]]),
);


// Named one by one: the definitions refer to them from module-level tables, and a bundler drops a
// table it does not need only when it holds plain names (a property read might run a getter).
export const referenceResolveResult = object({ items: array(referenceResolution, LIMITS.references.urlsResolvedPerDelivery) });
export const referenceSearchResult = object({
  items: array(object({
    url: httpsUrl, title: text(E.searchTitleMax, 1), subtitle: optional(text(E.searchSubtitleMax)), status: optional(referenceStatus),
  }), LIMITS.references.searchResultsPerQuery),
});
export const invocationResult = invocationAnswer;

export const pieceResultChecks = {
  'reference.resolve': referenceResolveResult,
  'reference.search': referenceSearchResult,
  'command.run': invocationResult,
  'messageAction.run': invocationResult,
} as const satisfies Partial<Record<InteractiveType, Check>>;
