/**
 * @module workspace/events/fan-out
 * Who receives an event: every active install in the workspace whose running version subscribes
 * to it (manifest `events`), whose approved scopes include the event's read scope (spec Events
 * table; none for the `app.*` and `block.*` events), and whose reach includes the circle the event
 * happened in (`canReach`: public circles and private circles the app was invited to, never
 * connected ones; dev installs only circles their developer belongs to). An event outside any
 * circle (install events, a block in a preview) has no reach check.
 */
import { EVENTS, parseReferencePattern, type EventType, type ReferencePattern } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { canReach } from '../reach/reach.ts';
import { candidateInstalls, circleForReach, type CandidateRow } from './store.ts';

export interface ReferenceKindPatterns {
  kind: string;
  patterns: Array<{ id: string; pattern: ReferencePattern }>;
}

export interface Recipient {
  installId: string;
  appId: string;
  slug: string;
  /** Subscribed, and the approved scopes allow it (reach is already applied). */
  accepts(type: EventType): boolean;
  /** The reference kinds of the running version, patterns parsed (read on first use). */
  referenceKinds(): ReferenceKindPatterns[];
}

export interface FanOutInput {
  workspaceId: string;
  /** The circle the event happened in; null: not in a circle (no reach check). */
  circleId: string | null;
  /** The event types the caller may record; installs subscribing to none of them are skipped. */
  types: readonly EventType[];
  /** Only these installs (for example the install that created a block). */
  installIds?: readonly string[] | undefined;
}

/** A version manifest's reference kinds with their patterns parsed (shared with messaging/references/matching.ts). */
export function parseReferenceKinds(references: unknown): ReferenceKindPatterns[] {
  if (!Array.isArray(references)) return [];
  const out: ReferenceKindPatterns[] = [];
  for (const ref of references as Array<{ kind?: unknown; patterns?: unknown }>) {
    if (typeof ref?.kind !== 'string' || !Array.isArray(ref.patterns)) continue;
    const patterns: ReferenceKindPatterns['patterns'] = [];
    for (const p of ref.patterns as Array<{ id?: unknown; pattern?: unknown }>) {
      if (typeof p?.id !== 'string' || typeof p.pattern !== 'string') continue;
      const parsed = parseReferencePattern(p.pattern);
      // Versions were validated when accepted; a pattern that no longer parses matches nothing.
      if (parsed.ok) patterns.push({ id: p.id, pattern: parsed.pattern });
    }
    out.push({ kind: ref.kind, patterns });
  }
  return out;
}

function recipientOf(row: CandidateRow): Recipient {
  const events = new Set(Array.isArray(row.events) ? row.events : []);
  const scopes = new Set(Array.isArray(row.approved_scopes) ? row.approved_scopes : []);
  let kinds: ReferenceKindPatterns[] | undefined;
  return {
    installId: row.install_id,
    appId: row.app_id,
    slug: row.slug,
    accepts(type) {
      const scope = EVENTS[type];
      return events.has(type) && (scope === null || scopes.has(scope));
    },
    referenceKinds: () => (kinds ??= parseReferenceKinds(row.references)),
  };
}

/**
 * @example
 * const recipients = await findRecipients(tx, { workspaceId, circleId, types: ['post.created', 'app.mentioned'] });
 * for (const r of recipients) if (r.accepts('post.created')) …
 */
export async function findRecipients(db: Db, input: FanOutInput): Promise<Recipient[]> {
  let circle = null;
  if (input.circleId !== null) {
    circle = await circleForReach(db, input.workspaceId, input.circleId);
    if (circle === undefined) return [];
  }
  const rows = await candidateInstalls(db, {
    workspaceId: input.workspaceId, circleId: input.circleId, types: input.types, installIds: input.installIds ?? null,
  });
  return rows
    .filter((row) => circle === null || canReach({
      installKind: row.kind,
      circle: { visibility: circle.visibility, connected: circle.connected, readOnly: circle.read_only },
      appInvited: row.invited,
      developerIsMember: row.developer_member,
    }))
    .map(recipientOf)
    .filter((r) => input.types.some((type) => r.accepts(type)));
}
