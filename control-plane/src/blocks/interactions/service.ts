/**
 * @module blocks/interactions/service
 * The member's side of blocks: view a block, click a button or menu item, submit a form, change a
 * field with a change handler (viewer inputs included), and query a search select. A member may
 * act on blocks in circles they see; references are those of the revision they saw, in the parts
 * of the tree shown to them. Final blocks take no actions (the app is not called for them again).
 * A destructive action needs `confirmed: true`: clients show the tree's `confirm` first. Buttons
 * of a link card's block go the same way (blocks/interactions/reference-click.ts).
 */
import { LIMITS, PlatformError, invalidRequest, jsonSize, type ActionDefinition } from '@platform/sdk';
import type { Actor } from '../../core/auth/actor.ts';
import type { BlockDefinitions, BlockType } from '../definitions/definitions.ts';
import type { Json } from '../records/store.ts';
import { blockFinal } from '../app-api/updates.ts';
import { deliveredBlock } from '../records/view.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import { targetFromRow } from '../../deliveries/pipeline/install-target.ts';
import { checkFieldValue, storePicks } from './fields.ts';
import { runAction, viewFor, type RunDeps } from './run-action.ts';
import type { ActionOutcome, BlockView } from './schemas.ts';
import { countsOf, findBlockForMember, type MemberBlockRow } from '../records/store.ts';
import { indexTree } from './tree-index.ts';
import { clickReference, type ReferenceClickDeps } from './reference-click.ts';

export interface InteractionsDeps extends RunDeps {
  definitions: BlockDefinitions;
  /** The messaging area's link cards (a reference card's block is clicked through its message). */
  links: ReferenceClickDeps['links'];
}

type FieldValue = string | boolean | string[] | null;

const notFound = () => new PlatformError('PlatformApiNotFoundError', 'No block with that id that you can see', { path: ['blockId'] });
const unknownRef = (path: Array<string | number>, message: string) => invalidRequest([{ path, message, code: 'unknown_reference' }]);
const NO_LONGER_OFFERED = 'The app no longer offers this action.';
const REDRAWN = 'The app no longer offers this action: the card was drawn by an earlier version of the app, and is drawn again by the one it runs now.';

export type InteractionsService = ReturnType<typeof createInteractionsService>;

export function createInteractionsService(deps: InteractionsDeps) {
  const { db } = deps;

  async function load(actor: Actor, blockId: string): Promise<{ row: MemberBlockRow; type: BlockType | undefined }> {
    const row = await findBlockForMember(db, blockId, actor.workspaceId, actor.memberId);
    if (row === undefined || !row.visible) throw notFound();
    return { row, type: await deps.definitions.blockType(row.app_id, row.t_version, row.type) };
  }

  /** Acting needs the revision the member saw, a block still open, and a circle that takes changes. */
  function assertActionable(row: MemberBlockRow, revision: number): void {
    if (row.final) throw blockFinal(row.id);
    if (row.read_only) throw new PlatformError('PlatformApiForbiddenError', 'This circle is read-only: its connection ended', { path: ['blockId'] });
    if (revision !== row.revision) {
      throw new PlatformError('PlatformApiConflictError', `The block changed since you saw it (revision ${row.revision} is current): reload it and try again`, {
        path: ['revision'], fields: { blockId: row.id, currentRevision: row.revision },
      });
    }
  }

  function assertConfirmed(destructive: boolean, confirmed: boolean | undefined): void {
    if (destructive && confirmed !== true) {
      throw invalidRequest([{ path: ['confirmed'], message: 'This action is destructive: show its confirm, then send confirmed: true', code: 'confirm_required' }]);
    }
  }

  /** The action behind a reference; undefined when the running version no longer has it. */
  function actionOf(row: MemberBlockRow, type: BlockType | undefined, ref: string): { entry: { name: string; args?: Json }; action: ActionDefinition } | undefined {
    const entry = row.actions[ref];
    const action = entry === undefined ? undefined : type?.actions.get(entry.name);
    return entry === undefined || action === undefined ? undefined : { entry, action };
  }

  /**
   * The card names an action the version the install runs does not have: it was drawn by another
   * version (the install moved on, or was rolled back). The member is told, and the card is drawn
   * again by the running version (docs/decisions/blocks.md, "Cards across versions"), so the next
   * click meets what that version offers.
   */
  async function notOffered(actor: Actor, row: MemberBlockRow, type: BlockType | undefined): Promise<ActionOutcome> {
    const shown = type === undefined ? row : { ...row, ...(await deps.renderer.redraw(row)) };
    const redrawn = shown.revision !== row.revision;
    return {
      outcome: 'failed', block: await viewFor(deps, shown, type, actor.memberId, countsOf(shown)), notice: null, fieldErrors: null, openUrl: null,
      error: { message: redrawn ? REDRAWN : NO_LONGER_OFFERED },
    };
  }

  function assertNotPending(row: MemberBlockRow, ref: string): void {
    if (row.pending !== null && row.pending.ref === ref && Date.parse(row.pending.until) > deps.clock.now()) {
      throw new PlatformError('PlatformApiConflictError', 'This action is still running: wait for the app to finish', { path: ['ref'] });
    }
  }

  return {
    async view(actor: Actor, blockId: string): Promise<{ block: BlockView }> {
      const { row, type } = await load(actor, blockId);
      return { block: await viewFor(deps, row, type, actor.memberId, countsOf(row)) };
    },

    async click(actor: Actor, blockId: string, body: { revision: number; ref: string; confirmed?: boolean | undefined }): Promise<ActionOutcome> {
      const { row, type } = await load(actor, blockId);
      assertActionable(row, body.revision);
      const use = indexTree(row.tree, actor.memberId).clicks.get(body.ref);
      if (use === undefined) throw unknownRef(['ref'], 'No button or menu item of this revision that you can see has this reference');
      const found = actionOf(row, type, body.ref);
      if (found === undefined || type === undefined) return notOffered(actor, row, type);
      assertConfirmed(use.destructive || found.action.hints.destructive, body.confirmed);
      assertNotPending(row, body.ref);
      return runAction(deps, { actor, row, type, ref: body.ref, ...found, counted: countsOf(row) });
    },

    /** A button or menu item in the block of a link card of a message (blocks/interactions/reference-click.ts). */
    clickReference: (actor: Actor, messageId: string, referenceId: string, body: { revision: number; ref: string; confirmed?: boolean | undefined }) =>
      clickReference(deps, actor, messageId, referenceId, body),

    async submit(actor: Actor, blockId: string, body: { revision: number; ref: string; values: Record<string, FieldValue>; confirmed?: boolean | undefined }): Promise<ActionOutcome> {
      const { row, type } = await load(actor, blockId);
      assertActionable(row, body.revision);
      if (jsonSize(body.values, { maxBytes: LIMITS.blockData.formInputBytes, maxDepth: 4 }) === null) {
        throw new PlatformError('PlatformApiPayloadTooLargeError', 'A form submission is at most 16 KB', { path: ['values'], fields: { limit: LIMITS.blockData.formInputBytes } });
      }
      const index = indexTree(row.tree, actor.memberId);
      const submit = index.submits.get(body.ref);
      if (submit === undefined) throw unknownRef(['ref'], 'No submit button of this revision that you can see has this reference');
      for (const [name, value] of Object.entries(body.values)) {
        const field = index.fields.get(name);
        if (field === undefined || !submit.fields.includes(name)) throw unknownRef(['values', name], 'This form has no such field');
        checkFieldValue(field, type, value, ['values', name]);
      }
      const found = actionOf(row, type, body.ref);
      if (found === undefined || type === undefined) return notOffered(actor, row, type);
      assertConfirmed(submit.destructive || found.action.hints.destructive, body.confirmed);
      assertNotPending(row, body.ref);
      await storePicks(db, row.id, index.fields, type, actor.memberId, body.values, new Date(deps.clock.now()));
      return runAction(deps, { actor, row, type, ref: body.ref, ...found, input: body.values });
    },

    async change(actor: Actor, blockId: string, body: { revision: number; name: string; value: FieldValue }): Promise<ActionOutcome> {
      const { row, type } = await load(actor, blockId);
      assertActionable(row, body.revision);
      const index = indexTree(row.tree, actor.memberId);
      const field = index.fields.get(body.name);
      if (field === undefined || field.onChange === null || field.form !== null) {
        throw unknownRef(['name'], 'No field of this revision that you can see has this name and a change handler');
      }
      checkFieldValue(field, type, body.value, ['value']);
      const found = actionOf(row, type, field.onChange);
      if (found === undefined || type === undefined) return notOffered(actor, row, type);
      const input = type.definition.inputs?.[body.name];
      const viewerInput = field.shared && input !== undefined;
      if (viewerInput) await storePicks(db, row.id, index.fields, type, actor.memberId, { [body.name]: body.value }, new Date(deps.clock.now()));
      return runAction(deps, { actor, row, type, ref: field.onChange, ...found, input: { [body.name]: body.value }, anonymous: viewerInput && input.anonymous === true });
    },

    async search(actor: Actor, blockId: string, body: { revision: number; name: string; query: string }) {
      const { row, type } = await load(actor, blockId);
      if (row.final) throw blockFinal(row.id);
      if (body.revision !== row.revision) throw new PlatformError('PlatformApiConflictError', `The block changed since you saw it (revision ${row.revision} is current)`, { path: ['revision'], fields: { blockId: row.id, currentRevision: row.revision } });
      const field = indexTree(row.tree, actor.memberId).fields.get(body.name);
      if (field === undefined || field.component !== 'uiSelect' || field.search === null) throw unknownRef(['name'], 'No search select of this revision that you can see has this name');
      const found = actionOf(row, type, field.search);
      if (found === undefined) return { options: [], error: { message: NO_LONGER_OFFERED } };
      const outcome = await deps.engine.deliver({
        type: 'select.search', target: targetFromRow(row), actor: { memberId: actor.memberId, name: actor.name },
        data: { block: deliveredBlock(row), action: { name: found.entry.name, args: found.entry.args ?? {} }, query: body.query },
      });
      if (outcome.kind !== 'result') return { options: [], error: { message: memberText(outcome.kind === 'failed' ? outcome.reason : 'not-deferrable') } };
      return { options: outcome.result.options, error: null };
    },
  };
}
