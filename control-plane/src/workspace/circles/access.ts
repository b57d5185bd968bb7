/**
 * @module workspace/circles/access
 * Who sees and who writes in a circle. A member sees public circles and the private circles they
 * belong to; anything else answers as if it did not exist. Nobody posts in a read-only circle.
 */
import { PlatformError } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { findCircle, type CircleRow } from './store.ts';

export function circleNotFound(): PlatformError {
  return new PlatformError('PlatformApiNotFoundError', 'No circle with that id in this workspace', { path: ['circleId'] });
}

export const canSee = (circle: CircleRow): boolean => circle.visibility === 'public' || circle.is_member;

export async function visibleCircle(db: Db, actor: Actor, circleId: string): Promise<CircleRow> {
  const circle = await findCircle(db, actor.workspaceId, circleId, actor.memberId);
  if (circle === undefined || !canSee(circle)) throw circleNotFound();
  return circle;
}

/** Posting needs a circle that still takes posts. */
export function assertWritable(circle: CircleRow): void {
  if (circle.read_only) {
    throw new PlatformError('PlatformApiForbiddenError', 'This circle is read-only: its connection ended', { path: ['circleId'] });
  }
}
