/**
 * @module scopes
 * The spec's scope table as data: what each scope allows and what needs it. Read scopes only decide
 * which events an install receives; write scopes gate `/v0` endpoints.
 */
import { SCOPE_NAMES, type Scope } from './names.ts';

export { SCOPE_NAMES, type Scope };

export interface ScopeInfo {
  /** What an install holding the scope may do (the spec's "Allows" column). */
  readonly allows: string;
  /** The endpoints, events and manifest pieces that need it (the spec's "Needed by" column). */
  readonly neededBy: readonly string[];
}

export const SCOPES = {
  'conversations:read': {
    allows: 'Receiving events about posts, replies, mentions, references, filed messages and conversations in reachable circles',
    neededBy: ['messageActions', 'post.created', 'reply.created', 'app.mentioned', 'reference.created', 'reference.removed', 'message.filed', 'conversation.updated', 'conversation.agreed'],
  },
  'decisions:read': { allows: 'Events about decisions', neededBy: ['decision.published', 'decision.updated'] },
  'calls:read': { allows: 'Call recap events', neededBy: ['call.recapReady'] },
  'replies:write': { allows: 'Posting messages and stream events as the app', neededBy: ['POST /v0/replies', 'POST /v0/streams/events'] },
  'notifications:write': { allows: 'Inbox and push notifications', neededBy: ['POST /v0/notifications', 'ActionResult.notify'] },
  'blocks:write': {
    allows: 'Inserting blocks and changing their state outside an interaction',
    neededBy: ['POST /v0/blocks', 'PATCH /v0/blocks/{block_id}', 'PUT /v0/blocks/{block_id}', 'PATCH /v0/blocks'],
  },
  'references:write': { allows: 'Pushing reference fields, asking for re-resolution', neededBy: ['PUT /v0/references', 'POST /v0/references/revalidate'] },
  'search:write': { allows: "Adding the app's objects to search", neededBy: ['PUT /v0/search/objects', 'DELETE /v0/search/objects'] },
  'memories:write': { allows: 'Saving workspace memories credited to the app', neededBy: ['POST /v0/memories'] },
  'decisions:write': { allows: 'Reserved; no endpoint uses it', neededBy: [] },
} as const satisfies Record<Scope, ScopeInfo>;

export { ScopeSchema } from './schema.ts';

/**
 * True when `value` names a scope of the spec.
 * @example isScope('blocks:write') // true
 */
export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPE_NAMES as readonly string[]).includes(value);
}
