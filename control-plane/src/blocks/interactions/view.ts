/**
 * @module blocks/interactions/view
 * A block as one member sees it. Pending and error follow the clock: a deferral whose 15 minutes
 * passed without the app finishing is no longer pending, and the member who clicked sees that it
 * did not finish. Inline errors of a member's own action are shown to that member only; a failed
 * render's error to everyone.
 */
import type { BlockWithTarget } from '../records/store.ts';
import type { InputView } from './inputs.ts';
import type { BlockView } from './schemas.ts';
import type { Json } from './tree-index.ts';

export const DEFERRAL_EXPIRED = "The app didn't finish in time. Try again.";

/**
 * @example
 * const view = memberView(row, indexTree(row.tree, memberId).tree, inputs, memberId, clock.now());
 */
export function memberView(row: BlockWithTarget, tree: Json, inputs: Record<string, InputView>, memberId: string, now: number): BlockView {
  const pending = row.pending !== null && Date.parse(row.pending.until) > now ? row.pending : null;
  const expired = row.pending !== null && pending === null && row.pending.memberId === memberId ? row.pending : null;
  const error = row.error !== null && (row.error.memberId === null || row.error.memberId === memberId)
    ? { message: row.error.message, at: row.error.at }
    : expired === null ? null : { message: DEFERRAL_EXPIRED, at: expired.until };
  return {
    id: row.id,
    type: row.type,
    app: { id: row.app_id, slug: row.t_slug, name: row.t_app_name, icon: row.t_app_icon },
    messageId: row.message_id,
    circleId: row.circle_id,
    conversationId: row.conversation_id,
    revision: row.revision,
    version: row.version,
    summary: row.final ? row.final_summary ?? row.summary : row.summary,
    tree,
    final: row.final ? { summary: row.final_summary ?? row.summary, at: (row.final_at ?? row.updated_at).toISOString() } : null,
    pending: pending === null ? null : { ref: pending.ref, since: pending.since, until: pending.until },
    error,
    openLink: row.open_link !== null && row.open_link.memberId === memberId ? { url: row.open_link.url, host: row.open_link.host } : null,
    inputs,
    updatedAt: row.updated_at.toISOString(),
  };
}
