/**
 * @module core/auth/actor
 * Who is calling: the member behind an API key, and the role rules that follow from it.
 */
import { PlatformError } from '@platform/sdk';

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface Actor {
  memberId: string;
  workspaceId: string;
  name: string;
  role: Role;
  /** The API key used for this request. */
  keyId: string;
}

export const isAdmin = (actor: Actor): boolean => actor.role === 'owner' || actor.role === 'admin';

export function requireAdmin(actor: Actor, what: string): void {
  if (!isAdmin(actor)) throw new PlatformError('PlatformApiForbiddenError', `Only workspace owners and admins can ${what}`);
}
