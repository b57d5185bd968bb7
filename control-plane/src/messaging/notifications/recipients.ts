/**
 * @module messaging/notifications/recipients
 * Which member an install may notify: the reach rule (spec, "What the service does", item 9) for a
 * single member instead of a circle (docs/decisions/notifications-memories.md).
 *
 * - The member must belong to the install's workspace.
 * - A workspace install is installed for the whole workspace: every member sees the app, so any
 *   member may be notified.
 * - A development install reaches only what its developer sees, and it is the developer's build:
 *   only the developer (the owner of the development app) may be notified, so a build in
 *   progress never pings colleagues.
 *
 * A member outside these answers as if absent (`404 PlatformApiNotFoundError`, path `memberId`).
 */

export interface RecipientInput {
  installKind: 'workspace' | 'dev';
  installWorkspaceId: string;
  /** The member's workspace, or null when no such member exists. */
  memberWorkspaceId: string | null;
  memberId: string;
  /** The owner of the app (the developer, for a development install). */
  developerId: string;
}

/**
 * @example
 * mayNotify({ installKind: 'dev', installWorkspaceId: 'ws_1', memberWorkspaceId: 'ws_1', memberId: 'mem_2', developerId: 'mem_1' }); // false
 */
export function mayNotify(input: RecipientInput): boolean {
  if (input.memberWorkspaceId !== input.installWorkspaceId) return false;
  return input.installKind === 'workspace' || input.memberId === input.developerId;
}
