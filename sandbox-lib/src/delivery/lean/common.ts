/**
 * @module delivery/lean/common
 * `delivery/common.ts` as lean checks, read as responses are (lenient): notices, surfaces, option
 * values, authors, blocks as delivered. Invocation answers and reference resolutions, which only
 * the pieces' results use, are in interactive-pieces.ts.
 */
import { LIMITS } from '../../limits/index.ts';
import { NOTICE_TONES } from '../constants.ts';
import { blockProps, blockState, id, text, timestamp, version } from './primitives.ts';
import { bool, closed, discriminated, int, literal, nullable, num, object, str, union } from './check.ts';

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

export const blockAsDeliveredShape = { id, type: str(1), props: blockProps, state: blockState, revision: int(0), version } as const;
export const blockAsDelivered = object(blockAsDeliveredShape);
