/**
 * @module deliveries/interactive/request-record
 * What is kept of an interactive delivery's request, so it can be shown and replayed (lifecycle
 * deliveries keep theirs in `outbox_events`): the envelope's `data` and `actor` and the version the
 * install ran. The interaction token is not kept (it is a live credential for 15 minutes); what it
 * was bound to (a block or a run) is, so a replay can mint a read-only one bound the same way.
 * A request over `MAX_RECORDED_REQUEST_BYTES` is not kept (the delivery cannot be replayed).
 */
import { decodeJwt } from 'jose';

export const MAX_RECORDED_REQUEST_BYTES = 256 * 1024;
const INTERACTION_PREFIX = 'platint_';

export interface RecordedRequest {
  data: Record<string, unknown>;
  actor: { memberId: string; name: string } | null;
  version: number;
  /** What the delivery's interaction token was bound to, when it carried one. */
  interaction?: { blockId: string | null; invocationId: string | null };
}

/** The binding of one of our interaction tokens (its claims `blk` / `inv`), read without verifying: we minted it a moment ago. */
function bindingOf(token: unknown): RecordedRequest['interaction'] | undefined {
  if (typeof token !== 'string' || !token.startsWith(INTERACTION_PREFIX)) return undefined;
  try {
    const claims = decodeJwt(token.slice(INTERACTION_PREFIX.length));
    return { blockId: typeof claims.blk === 'string' ? claims.blk : null, invocationId: typeof claims.inv === 'string' ? claims.inv : null };
  } catch {
    return undefined;
  }
}

/**
 * What the record adds to the envelope it comes from (`version` and the token's binding, a few
 * ids): a record of an envelope this much under the cap is under it too.
 */
const RECORD_OVER_ENVELOPE = 512;

/**
 * `envelopeLength`, the length of the delivery's JSON body when known: the record is part of it,
 * so an envelope well under the cap spares serializing the record only to measure it.
 * @example requestRecord({ data: { block, interactionToken }, actor }, 3) // { data: { block }, actor, version: 3, interaction: { blockId, invocationId: null } }
 */
export function requestRecord(input: { data: Record<string, unknown>; actor: RecordedRequest['actor'] }, version: number, envelopeLength?: number): RecordedRequest | null {
  const { interactionToken, ...data } = input.data;
  const interaction = bindingOf(interactionToken);
  const record: RecordedRequest = { data, actor: input.actor, version, ...(interaction === undefined ? {} : { interaction }) };
  if (envelopeLength !== undefined && envelopeLength + RECORD_OVER_ENVELOPE <= MAX_RECORDED_REQUEST_BYTES) return record;
  return JSON.stringify(record).length > MAX_RECORDED_REQUEST_BYTES ? null : record;
}
