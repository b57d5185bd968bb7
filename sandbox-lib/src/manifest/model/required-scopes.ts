/**
 * @module manifest/model/required-scopes
 * The scopes a manifest's pieces need (spec Authentication): each block action's declared scopes,
 * the read scope implied by each subscribed event, and `conversations:read` for message actions.
 * The authoring core computes `scopes` from this; `validateManifest` checks it is covered.
 */
import { EVENTS, type EventType } from '../../events/index.ts';
import { SCOPE_NAMES, type Scope } from '../../scopes/index.ts';
import type { ManifestPath } from './rule.ts';

/** The pieces scope needs are read from; a computed manifest has all of them. */
export interface ScopedPieces {
  readonly blocks?: ReadonlyArray<{ readonly type: string; readonly actions?: ReadonlyArray<{ readonly name: string; readonly scopes?: readonly Scope[] }> }>;
  readonly messageActions?: readonly unknown[];
  readonly events?: readonly EventType[];
}

export interface ScopeNeed {
  readonly scope: Scope;
  /** What needs it, in words. */
  readonly by: string;
  /** Where in the manifest. */
  readonly path: ManifestPath;
}

/**
 * Every scope need of `pieces`, in manifest order.
 * @example scopeNeeds({ events: ['decision.updated'] }) // [{ scope: 'decisions:read', by: 'event decision.updated', path: ['events', 0] }]
 */
export function scopeNeeds(pieces: ScopedPieces): ScopeNeed[] {
  const needs: ScopeNeed[] = [];
  for (const [i, block] of (pieces.blocks ?? []).entries()) {
    for (const [j, action] of (block.actions ?? []).entries()) {
      for (const [k, scope] of (action.scopes ?? []).entries()) {
        needs.push({ scope, by: `action ${action.name} of block ${block.type}`, path: ['blocks', i, 'actions', j, 'scopes', k] });
      }
    }
  }
  if ((pieces.messageActions ?? []).length > 0) needs.push({ scope: 'conversations:read', by: 'message actions', path: ['messageActions'] });
  for (const [i, event] of (pieces.events ?? []).entries()) {
    const scope = EVENTS[event];
    if (scope !== null) needs.push({ scope, by: `event ${event}`, path: ['events', i] });
  }
  return needs;
}

/**
 * The union of the scopes `pieces` need, in the spec's scope order.
 * @example requiredScopes({ messageActions: [{}] }) // ['conversations:read']
 */
export function requiredScopes(pieces: ScopedPieces): Scope[] {
  const needed = new Set(scopeNeeds(pieces).map((need) => need.scope));
  return SCOPE_NAMES.filter((scope) => needed.has(scope));
}
