/**
 * @module messaging/references/matching
 * Which installed app claims a link: the installs of the workspace whose running version declares
 * reference kinds and that may see the place the link is in (the reach rule for a circle; outside
 * a circle, workspace installs and the asking member's own development installs), then, per URL,
 * the first install (oldest first), kind and pattern (manifest order) whose pattern matches, with
 * `matchReferencePattern` as the events feature uses it. One link gives at most one card.
 */
import { matchReferencePattern } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { targetFromRow, type InstallTarget } from '../../deliveries/pipeline/install-target.ts';
import { parseReferenceKinds, type ReferenceKindPatterns } from '../../workspace/events/fan-out.ts';
import { canReach } from '../../workspace/reach/reach.ts';
import { referenceInstalls, type ReferenceInstallRow } from './store.ts';

export type KindPatterns = ReferenceKindPatterns;

export interface ClaimingInstall {
  target: InstallTarget;
  kinds: KindPatterns[];
}

export interface LinkMatch {
  url: string;
  install: ClaimingInstall;
  kind: string;
  patternId: string;
  params: Record<string, string>;
}

/** Where the link is: a circle (reach rule) or nowhere yet (a preview in a composer). */
export interface LinkPlace {
  workspaceId: string;
  circle: { id: string; visibility: 'public' | 'private'; connected: boolean; readOnly: boolean } | null;
  memberId: string;
}

// Versions never change once written: parsed patterns are kept per app version (bounded).
const PARSED_MAX = 1_000;
const parsedKinds = new Map<string, KindPatterns[]>();
function kindsOf(row: ReferenceInstallRow): KindPatterns[] {
  const key = `${row.t_app_id}@${row.t_version}`;
  let kinds = parsedKinds.get(key);
  if (kinds === undefined) {
    kinds = parseReferenceKinds(row.references);
    if (parsedKinds.size >= PARSED_MAX) parsedKinds.clear();
    parsedKinds.set(key, kinds);
  }
  return kinds;
}

function reaches(row: ReferenceInstallRow, place: LinkPlace): boolean {
  if (place.circle === null) return row.t_install_kind === 'workspace' || row.developer_is_actor;
  return canReach({
    installKind: row.t_install_kind,
    circle: { visibility: place.circle.visibility, connected: place.circle.connected, readOnly: place.circle.readOnly },
    appInvited: row.invited,
    developerIsMember: row.developer_member,
  });
}

/** The installs that may resolve links in `place`, oldest first. */
export async function claimingInstalls(db: Db, place: LinkPlace): Promise<ClaimingInstall[]> {
  const rows = await referenceInstalls(db, { workspaceId: place.workspaceId, circleId: place.circle?.id ?? null, memberId: place.memberId });
  return rows.filter((row) => reaches(row, place)).map((row) => ({ target: targetFromRow(row), kinds: kindsOf(row) }));
}

/**
 * The match of each URL, in the URLs' order; null where no install claims it.
 * @example matchLinks(installs, ['https://tracker.example.com/acme/issues/42']) // [{ kind: 'issue', patternId: 'issue', params: { … }, … }]
 */
export function matchLinks(installs: readonly ClaimingInstall[], urls: readonly string[]): Array<LinkMatch | null> {
  return urls.map((url) => {
    for (const install of installs) {
      for (const { kind, patterns } of install.kinds) {
        for (const { id, pattern } of patterns) {
          const params = matchReferencePattern(pattern, url);
          if (params !== null) return { url, install, kind, patternId: id, params };
        }
      }
    }
    return null;
  });
}
