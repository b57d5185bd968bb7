/**
 * @module delivery/lean/common
 * `delivery/common.ts` as lean checks, read as responses are (lenient): notices, surfaces, option
 * values, authors, invocation answers, reference resolutions, blocks as delivered.
 */
import { LIMITS } from '../../limits/index.ts';
import { NOTICE_TONES, REFERENCE_ACCESS, VISIBILITIES } from '../constants.ts';
import { actionTable, blockProps, blockState, httpsUrl, id, text, timestamp, typed, version } from './primitives.ts';
import { bool, closed, discriminated, int, literal, nullable, num, object, oneOf, optional, preprocess, str, union } from './check.ts';

export const notice = object({ tone: closed(NOTICE_TONES, 'neutral'), text: text(LIMITS.actions.notice, 1) });

export const surface = discriminated('kind', [
  ['circle', object({ kind: literal('circle'), circleId: id, conversationId: nullable(id) })],
  ['dm', object({ kind: literal('dm'), partnerMemberId: id })],
]);

export const optionValue = union(
  str(), num, bool,
  object({ kind: literal('member'), memberId: id, name: str() }),
  object({ kind: literal('circle'), circleId: id, name: str() }),
  object({ kind: literal('appObject'), id: str(1), title: str() }),
);

export const author = object({ kind: closed(['member', 'app'], 'member'), id, name: str() });
export const actor = object({ memberId: id, name: str() });
export const contextMessage = object({ id, text: str(), author, createdAt: timestamp });

export const invocationAnswer = object({
  visibility: closed(VISIBILITIES, 'private'),
  content: optional(typed),
  block: optional(object({ type: str(1), props: blockProps })),
  notice: optional(notice),
});

export const referenceStatus = object({ state: str(1, 64), label: text(LIMITS.text.statusLabel, 1) });
const treeWithActions = object({ tree: typed, actions: actionTable });

const E = LIMITS.endpoints;
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

export const blockAsDeliveredShape = { id, type: str(1), props: blockProps, state: blockState, revision: int(0), version } as const;
export const blockAsDelivered = object(blockAsDeliveredShape);
