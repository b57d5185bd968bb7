/**
 * @module blocks/interactions/reference-click
 * A member clicks a button or menu item in the block of a link card (a reference resolved with a
 * `block`): the same `block.action` delivery as a message card's click, for the card's shared
 * record. The member names the message the card is in (they must see it, and one of its cards
 * must show the record) and the record's `revision` they saw. What the delivered block is, and what
 * of an ActionResult applies (docs/decisions/member-features.md):
 *
 * - `data.block` is `{ id: <record id>, type: <reference kind>, props: {}, state: {}, revision,
 *   version, reference: { kind, externalId, url } }`; `tallies` is empty (cards have no viewer
 *   inputs); the interaction token is bound to the click's invocation id, not to a block (the app
 *   updates the card with `PUT /v0/references`).
 * - `tree` + `actions` replace the record's block (catalog-checked first), unless the record was
 *   written since the member saw it (the newer write stands); `notice`, `fieldErrors`, `openUrl`
 *   are answered to the member; `notify` sends notifications linking to the card's URL;
 *   `revalidate` marks the record stale (the next view resolves it again); `state` and `final` do
 *   not apply to a card (it has no state, and its block is replaced by every resolve and push).
 * - A `202` answers `pending` and stores nothing (the app pushes later); a failure answers `failed`
 *   with the member's error text and leaves the card as it was.
 */
import { PlatformError, invalidRequest, type ActionResult, type Notice } from '@platform/sdk';
import type { Actor } from '../../core/auth/actor.ts';
import { newInvocationId } from '../records/ids.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import { checkTree, treeProblem, withCopiedImages, type CheckedTree } from '../../deliveries/interactive/tree-check.ts';
import { sendNotifications } from '../../messaging/notifications/notify.ts';
import type { MemberLinks } from '../../messaging/references/links.ts';
import { findRecordById, markStale, writeRecordBlock, type RecordRow } from '../../messaging/references/store.ts';
import { cardOf } from '../../messaging/references/view.ts';
import type { RunDeps } from './run-action.ts';
import type { ReferenceActionOutcome } from './schemas.ts';
import { indexTree, type Json } from './tree-index.ts';

export interface ReferenceClickDeps extends Omit<RunDeps, 'renderer'> {
  links: Pick<MemberLinks, 'storedCard'>;
}

interface Prepared {
  tree: CheckedTree | null;
  notify: Array<{ memberId: string; text: string }>;
  notice: Notice | null;
  fieldErrors: Record<string, string> | null;
  openUrl: string | null;
  revalidate: boolean;
}

const cardNotFound = () => new PlatformError('PlatformApiNotFoundError', 'No card of this message shows that reference', { path: ['referenceId'] });
const unknownRef = () => invalidRequest([{ path: ['ref'], message: 'No button or menu item of this card\'s block that you can see has this reference', code: 'unknown_reference' }]);

/** Checks a result for a card; a string is the problem that fails the action. */
function prepare(result: ActionResult): Prepared | string {
  let tree: CheckedTree | null = null;
  if (result.tree !== undefined) {
    const checked = checkTree(result.tree, result.actions);
    if (!checked.ok) return treeProblem(checked);
    tree = checked;
  }
  return {
    tree, notify: result.notify ?? [], notice: result.notice ?? null, fieldErrors: result.fieldErrors ?? null,
    openUrl: result.openUrl ?? null, revalidate: result.revalidate === true,
  };
}

type Block = { tree: Json; actions: Record<string, { name: string; args?: Json }> };

function blockOf(record: RecordRow): Block | undefined {
  const block = record.fields.block as Partial<Block> | null | undefined;
  return block != null && typeof block.tree === 'object' && block.tree !== null ? { tree: block.tree, actions: block.actions ?? {} } : undefined;
}

/**
 * @example
 * const outcome = await clickReference(deps, actor, 'msg_…', 'ref_…', { revision: 7, ref: 'a0' });
 */
export async function clickReference(deps: ReferenceClickDeps, actor: Actor, messageId: string, referenceId: string,
  body: { revision: number; ref: string; confirmed?: boolean | undefined }): Promise<ReferenceActionOutcome> {
  const found = await deps.links.storedCard(actor, messageId, referenceId);
  if (found === undefined) throw cardNotFound();
  const { match, record } = found;
  if (body.revision !== Number(record.revision)) {
    throw new PlatformError('PlatformApiConflictError', `The card changed since you saw it (revision ${record.revision} is current): reload it and try again`, {
      path: ['revision'], fields: { referenceId, currentRevision: Number(record.revision) },
    });
  }
  const block = blockOf(record);
  const use = block === undefined ? undefined : indexTree(block.tree, actor.memberId).clicks.get(body.ref);
  const entry = block?.actions[body.ref];
  if (use === undefined || entry === undefined) throw unknownRef();
  if (use.destructive && body.confirmed !== true) {
    throw invalidRequest([{ path: ['confirmed'], message: 'This action is destructive: show its confirm, then send confirmed: true', code: 'confirm_required' }]);
  }

  const target = match.install.target;
  const invocationId = newInvocationId();
  const token = await deps.tokens.mint('interaction', { installId: target.installId, appId: target.app.id, workspaceId: target.workspaceId, blockId: null, invocationId });
  let prepared: Prepared | undefined;
  const outcome = await deps.engine.deliver({
    type: 'block.action', target, actor: { memberId: actor.memberId, name: actor.name },
    data: {
      block: {
        id: record.id, type: record.kind, props: {}, state: {}, revision: Number(record.revision), version: Number(record.version ?? 0),
        reference: { kind: record.kind, externalId: record.external_id, url: match.url },
      },
      action: { name: entry.name, args: entry.args ?? {} }, tallies: {}, invocationId, interactionToken: token.token,
    },
    check: async (result, budget) => {
      const checked = prepare(result);
      if (typeof checked === 'string') return checked;
      if (checked.tree !== null) {
        const copied = await withCopiedImages(deps.images, checked.tree, { withinMs: budget.remainingMs });
        if (!copied.ok) return treeProblem(copied);
        checked.tree = copied;
      }
      prepared = checked;
      return null;
    },
  });
  const answer = { notice: null, fieldErrors: null, openUrl: null, error: null } as Omit<ReferenceActionOutcome, 'outcome' | 'card'>;
  let current: RecordRow | undefined = record;
  let result: ReferenceActionOutcome['outcome'];
  if (outcome.kind === 'deferred') result = 'pending';
  else if (outcome.kind === 'failed' || prepared === undefined) {
    result = 'failed';
    answer.error = { message: memberText(outcome.kind === 'failed' ? outcome.reason : 'response-invalid') };
  } else {
    result = 'applied';
    const p = prepared;
    Object.assign(answer, { notice: p.notice, fieldErrors: p.fieldErrors, openUrl: p.openUrl });
    const at = new Date(deps.clock.now());
    // A record written since the click keeps the newer write: the action's tree is dropped.
    if (p.tree !== null) await writeRecordBlock(deps.db, { id: record.id, seenRevision: record.revision, block: { tree: p.tree.tree, actions: p.tree.actions }, at });
    if (p.revalidate) await markStale(deps.db, target.installId, record.kind, record.external_id, at);
    if (p.notify.length > 0) {
      await sendNotifications({ db: deps.db, kv: deps.kv, logger: deps.logger, now: at },
        { workspaceId: target.workspaceId, appId: target.app.id, installId: target.installId, installKind: target.installKind, blockId: null, url: match.url, scopes: target.scopes },
        p.notify);
    }
    current = await findRecordById(deps.db, record.id);
  }
  return { outcome: result, card: cardOf(match, 'granted', current ?? record, actor.memberId), ...answer };
}
