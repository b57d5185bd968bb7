/**
 * @module blocks/invocations/view
 * A run as its client sees it at a moment: a pending run past its 15 minutes reads `failed` ("The
 * app didn't finish in time.", computed on read, no sweeper); a private answer past its 24 hours,
 * or dismissed, reads `answer: null`.
 */
import type { InvocationView } from './schemas.ts';
import type { RunRow } from './store.ts';

const EXPIRED = "The app didn't finish in time.";

export function runView(row: RunRow, now: number): InvocationView {
  const expired = (row.status === 'pending' || row.status === 'applying') && row.deadline_at !== null && row.deadline_at.getTime() <= now;
  const status = expired ? 'failed' : row.status === 'answered' ? 'answered' : row.status === 'failed' ? 'failed' : 'pending';
  const privateLive = row.dismissed_at === null && (row.private_until === null || row.private_until.getTime() > now);
  return {
    id: row.id, kind: row.kind, name: row.name, appId: row.app_id, memberId: row.member_id, surface: row.surface, status,
    visibility: row.visibility, answer: privateLive ? row.answer as InvocationView['answer'] : null,
    messageIds: row.message_ids, blockId: row.block_id, notice: row.notice as InvocationView['notice'],
    error: expired ? { message: EXPIRED } : row.error,
    pendingUntil: status === 'pending' ? row.deadline_at!.toISOString() : null, createdAt: row.created_at.toISOString(),
    sharedAt: row.shared_at === null ? null : row.shared_at.toISOString(),
    dismissedAt: row.dismissed_at === null ? null : row.dismissed_at.toISOString(),
  };
}
