/**
 * @module blocks/interactions/run-action
 * One `block.action` for a member (a click, a form submission or a field change), from delivery to
 * what the member sees: a fresh invocation id and interaction token (bound to this block, 15
 * minutes), the tallies of the block's viewer inputs, the delivery, then one of three endings:
 * the result applied (blocks/interactions/apply.ts), a `202` leaving the control pending, or a failure
 * keeping the last good tree with an inline error. The action runs without holding a lock on the
 * block (the app may update the block with its interaction token while it works); its result is
 * applied to the block as it is then, unless it became final meanwhile.
 */
import type { ImageCopier } from '../../apps/assets/copy.ts';
import { treeProblem, withCopiedImages } from '../../deliveries/interactive/tree-check.ts';
import { LIMITS, type ActionDefinition } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { Kv } from '../../core/kv/kv.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { Actor } from '../../core/auth/actor.ts';
import type { TokenService } from '../../apps/tokens/service.ts';
import type { BlockType } from '../definitions/definitions.ts';
import { newInvocationId } from '../records/ids.ts';
import { findBlock, type BlockWithTarget, type Json } from '../records/store.ts';
import { deliveredBlock } from '../records/view.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import { memberText } from '../../deliveries/interactive/failures.ts';
import { targetFromRow } from '../../deliveries/pipeline/install-target.ts';
import type { Renderer } from '../rendering/service.ts';
import { prepareResult, resultWrite, type PreparedResult } from './apply.ts';
import { readInputs, type InputsSnapshot } from './inputs.ts';
import { sendNotifications } from '../../messaging/notifications/notify.ts';
import type { ActionOutcome } from './schemas.ts';
import type { ResultWriter } from '../records/result-writer.ts';
import { writeActionResults, writeFailure, writePending, type InputCounts, type ResultWrite } from '../records/store.ts';
import { isPlatformError } from '@platform/sdk';
import { unitKeyOf, type ActionEnd, type UnitOfWork } from '../../core/unit-of-work/unit-of-work.ts';
import { indexTree } from './tree-index.ts';
import { memberView } from './view.ts';

export interface RunDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  engine: InteractiveEngine;
  renderer: Renderer;
  /** The click's durable write, group-committed with concurrent clicks'. */
  results: ResultWriter;
  /** Copies the images of a result's tree before it is written. */
  images: ImageCopier;
  /** What the handler staged with the interaction token (storage commits), applied with the result. */
  unitOfWork: UnitOfWork;
}

export interface ActionRun {
  actor: Actor;
  row: BlockWithTarget;
  type: BlockType;
  ref: string;
  entry: { name: string; args?: Json };
  action: ActionDefinition;
  /** Form values or a change handler's pick. */
  input?: Json;
  /** The change of an anonymous input: the delivery carries no actor. */
  anonymous?: boolean;
  /** The inputs' counts read with `row`, when no pick changed since (a click; not a submission or change that stored one). */
  counted?: InputCounts;
}

export const CLOSED_MEANWHILE = 'The block was closed while the app worked on this.';

/**
 * The block as the member sees it now: rendered first if a render came due. `inputs` may be read
 * already (a click reads them once, before delivering), or their counts read with the row.
 */
export async function viewFor(deps: Pick<RunDeps, 'db' | 'clock' | 'renderer'>, row: BlockWithTarget, type: BlockType | undefined, memberId: string, inputs?: InputsSnapshot | InputCounts) {
  const shown = await deps.renderer.refresh(row);
  const snapshot = inputs !== undefined && 'views' in inputs ? inputs
    : type === undefined ? undefined : await readInputs(deps.db, shown.id, type.definition.inputs ?? {}, memberId, inputs);
  return memberView(shown, indexTree(shown.tree, memberId).tree, snapshot?.views ?? {}, memberId, deps.clock.now());
}

/**
 * @example
 * const outcome = await runAction(deps, { actor, row, type, ref: 'a0', entry: row.actions.a0, action });
 */
export async function runAction(deps: RunDeps, run: ActionRun): Promise<ActionOutcome> {
  const { row, actor, type } = run;
  const memberId = actor.memberId;
  const readOnly = run.action.hints.readOnly;
  const invocationId = newInvocationId();
  const [token, inputs] = await Promise.all([
    deps.tokens.mint('interaction', { installId: row.install_id, appId: row.app_id, workspaceId: row.workspace_id, blockId: row.id, invocationId: null }),
    readInputs(deps.db, row.id, type.definition.inputs ?? {}, memberId, run.counted),
  ]);
  // The unit of work opens when the handler first stages something (core/unit-of-work): most stage
  // nothing. The action ends when the app answered: its end (a key-value round trip) runs beside the
  // answer's checks instead of after them.
  const unit = unitKeyOf(token.token);
  let ended: Promise<ActionEnd> | undefined;
  const endAction = () => (ended ??= deps.unitOfWork.endAction(unit));
  let prepared: PreparedResult | undefined;
  const outcome = await deps.engine.deliver({
    type: 'block.action', target: targetFromRow(row), actor: run.anonymous === true ? null : { memberId, name: actor.name },
    data: {
      block: deliveredBlock(row), action: { name: run.entry.name, args: run.entry.args ?? {} }, ...(run.input === undefined ? {} : { input: run.input }),
      tallies: inputs.tallies, invocationId, interactionToken: token.token,
    },
    check: async (result, budget) => {
      void endAction();
      const checked = prepareResult(result, type, readOnly);
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
  const at = new Date(deps.clock.now());
  const answer = { notice: null, fieldErrors: null, openUrl: null, error: null } as Omit<ActionOutcome, 'outcome' | 'block'>;
  let written: BlockWithTarget | undefined;
  let result: ActionOutcome['outcome'];

  if (outcome.kind === 'deferred') {
    result = 'pending';
    const until = new Date(at.getTime() + LIMITS.actions.deferredAnswerWindowMs).toISOString();
    written = await writePending(deps.db, row.id, { ref: run.ref, invocationId, memberId, since: at.toISOString(), until }, at);
    await applyDeferredUnit(deps, unit, await endAction());
  } else if (outcome.kind === 'failed' || prepared === undefined) {
    result = 'failed';
    // A refused result takes what its handler staged with it.
    if ((await endAction()) === 'staged') await deps.unitOfWork.discard(deps.db, unit);
    const message = memberText(outcome.kind === 'failed' ? outcome.reason : 'response-invalid');
    answer.error = { message };
    written = await writeFailure(deps.db, row.id, { memberId, message, at: at.toISOString() }, at);
  } else {
    result = 'applied';
    const p = prepared;
    Object.assign(answer, { notice: p.notice, fieldErrors: p.fieldErrors, openUrl: p.openUrl });
    const write = resultWrite(p, { memberId, staleAfter: type.definition.staleAfter, at, hadMemberError: row.error?.memberId === memberId });
    const applied = await applyWithUnit(deps, { key: unit, end: await endAction() }, row, write);
    if (applied.kind === 'refused') {
      result = 'failed';
      answer.error = { message: applied.message };
      Object.assign(answer, { notice: null, fieldErrors: null, openUrl: null });
      written = await writeFailure(deps.db, row.id, { memberId, message: applied.message, at: at.toISOString() }, at);
    } else {
      written = applied.written;
      if (written === undefined) {
        result = 'failed';
        answer.error = { message: CLOSED_MEANWHILE };
      }
    }
    if (written !== undefined && result === 'applied' && p.notify.length > 0) {
      await sendNotifications({ db: deps.db, kv: deps.kv, logger: deps.logger, now: at },
        { workspaceId: row.workspace_id, appId: row.app_id, installId: row.install_id, installKind: row.t_install_kind, blockId: row.id, scopes: row.t_scopes }, p.notify);
    }
    if (written !== undefined && result === 'applied' && p.revalidate && !written.final) deps.renderer.schedule(row.id, { force: true });
  }
  const current = written ?? (await findBlock(deps.db, row.id)) ?? row;
  return { outcome: result, block: await viewFor(deps, current, type, memberId, inputs), ...answer };
}

export const STORAGE_CHANGED = 'The app\'s stored data changed while it worked on this; nothing was saved.';

class ClosedMeanwhile extends Error {}

/**
 * The result's write and what its handler staged, both or neither. When nothing was staged (the
 * action ended without a statement) the write goes through the group commit as always; otherwise
 * in one transaction of its own: the staged items first (a failed check or a quota throws and
 * rolls everything back), then the block. A unit the handler staged in but which holds nothing any
 * more (its stage lost the race with the end), and every action ended while the key-value store
 * was away, take this path too: rare, and still correct.
 */
async function applyWithUnit(deps: RunDeps, ended: { key: string; end: ActionEnd }, row: BlockWithTarget, write: ResultWrite | null):
  Promise<{ kind: 'written'; written: BlockWithTarget | undefined } | { kind: 'refused'; message: string }> {
  const unit = ended.key;
  if (ended.end === 'nothing-staged') {
    return { kind: 'written', written: write === null ? row : await deps.results.write(row, write) };
  }
  try {
    const written = await deps.db.transaction(async (tx) => {
      await deps.unitOfWork.apply(tx, unit);
      if (write === null) return row;
      const [w] = await writeActionResults(tx, [{ row, write }]);
      if (w === undefined) throw new ClosedMeanwhile();
      return w;
    });
    return { kind: 'written', written };
  } catch (err) {
    await deps.unitOfWork.discard(deps.db, unit);
    if (err instanceof ClosedMeanwhile) return { kind: 'written', written: undefined };
    if (isPlatformError(err) && err.fault === 'user') return { kind: 'refused', message: STORAGE_CHANGED };
    throw err;
  }
}

/**
 * A deferred action has no result to ride with: what its handler staged before the 202 is applied
 * now, on its own, and later calls with the token commit directly. A staged check that fails here
 * drops those writes (logged): the app finishes the action itself, with its interaction token.
 */
async function applyDeferredUnit(deps: RunDeps, unit: string, end: ActionEnd): Promise<void> {
  if (end === 'nothing-staged') return;
  try {
    await deps.db.transaction((tx) => deps.unitOfWork.apply(tx, unit));
  } catch (err) {
    await deps.unitOfWork.discard(deps.db, unit);
    if (!(isPlatformError(err) && err.fault === 'user')) throw err;
    deps.logger.warn({ err }, 'A deferred action\'s staged storage writes were refused at the 202');
  }
}
