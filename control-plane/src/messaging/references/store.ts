/**
 * @module messaging/references/store
 * Plain SQL over `reference_records` and `reference_links` (migration 016), and the installs whose
 * running version declares reference kinds, with the facts the reach rule needs.
 */
import type { Db } from '../../core/db/db.ts';
import { TARGET_COLUMNS, type TargetColumns } from '../../deliveries/pipeline/install-target.ts';
import { idMaker } from '../../core/ids/ids.ts';

export const newReferenceId = idMaker('reference');

export interface ReferenceInstallRow extends TargetColumns {
  references: unknown;
  /** The app was invited to the circle asked about (false without a circle). */
  invited: boolean;
  /** The install's developer belongs to the circle asked about (false without a circle). */
  developer_member: boolean;
  /** The install's developer is the member asking (dev installs outside a circle). */
  developer_is_actor: boolean;
}

/** Active installs of the workspace whose running version has reference kinds, oldest install first. */
export async function referenceInstalls(db: Db, input: { workspaceId: string; circleId: string | null; memberId: string }): Promise<ReferenceInstallRow[]> {
  const { rows } = await db.query<ReferenceInstallRow>(
    `select ${TARGET_COLUMNS}, v.manifest -> 'references' as references,
            ($2::text is not null and exists (select 1 from circle_app_invitations ci where ci.circle_id = $2 and ci.app_id = i.app_id)) as invited,
            ($2::text is not null and exists (select 1 from circle_members cm
               where cm.circle_id = $2 and cm.member_id = coalesce(i.installed_by_member_id, a.owner_member_id))) as developer_member,
            coalesce(i.installed_by_member_id, a.owner_member_id) = $3 as developer_is_actor
       from installs i
       join apps a on a.id = i.app_id
       join app_versions v on v.app_id = i.app_id and v.version = i.version
      where i.workspace_id = $1 and i.status = 'active'
        and jsonb_typeof(v.manifest -> 'references') = 'array' and jsonb_array_length(v.manifest -> 'references') > 0
      order by i.created_at, i.id`,
    [input.workspaceId, input.circleId, input.memberId]);
  return rows;
}

export interface RecordRow {
  id: string;
  install_id: string;
  kind: string;
  external_id: string;
  fields: Record<string, unknown>;
  /** The last applied push, as text (bigint); null: only ever resolved. */
  version: string | null;
  stale: boolean;
  /** Ours, as text (bigint): increases with every write to the record (migration 019). */
  revision: string;
}

const RECORD_COLUMNS = 'id, install_id, kind, external_id, fields, version::text as version, stale, revision::text as revision';

export interface CachedLinkRow {
  install_id: string;
  kind: string;
  url: string;
  access: 'granted' | 'unauthorized' | 'forbidden' | 'notFound';
  resolved_at: Date;
  record: RecordRow | null;
}

const RECORD_JSON = `case when r.id is null then null else jsonb_build_object(
  'id', r.id, 'install_id', r.install_id, 'kind', r.kind, 'external_id', r.external_id, 'fields', r.fields,
  'version', r.version::text, 'stale', r.stale, 'revision', r.revision::text) end`;

/** What each (install, kind, url) resolved to before, if anything is stored. */
export async function cachedLinks(db: Db, keys: ReadonlyArray<{ installId: string; kind: string; url: string }>): Promise<CachedLinkRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await db.query<CachedLinkRow>(
    `select l.install_id, l.kind, l.url, l.access, l.resolved_at, ${RECORD_JSON} as record
       from unnest($1::text[], $2::text[], $3::text[]) as k(install_id, kind, url)
       join reference_links l on l.install_id = k.install_id and l.kind = k.kind and l.url = k.url
       left join reference_records r on r.id = l.record_id`,
    [keys.map((k) => k.installId), keys.map((k) => k.kind), keys.map((k) => k.url)]);
  return rows;
}

/** A mark from the revision sequence: every write after this moment gives its record a higher revision. */
export async function revisionMark(db: Db): Promise<string> {
  const { rows } = await db.query<{ mark: string }>("select nextval('reference_revisions')::text as mark");
  return rows[0]!.mark;
}

/**
 * Stores a granted resolution sent at `mark` (revisionMark): the record is created, or its fields
 * replaced (its pushed `version` kept) and made fresh, only if nothing wrote to it since the mark;
 * otherwise the newer write stands. With `apply` false only the link is stored (another item of
 * the same answer names the object too and is applied). Either way the link points to the record;
 * answers the record as stored now and whether these fields were applied.
 */
export async function storeGranted(db: Db, input: { installId: string; kind: string; externalId: string; url: string; fields: Record<string, unknown>; at: Date; mark: string; apply: boolean }): Promise<{ record: RecordRow; applied: boolean }> {
  let applied = false;
  if (input.apply) {
    const { rows } = await db.query(
      `insert into reference_records (id, install_id, kind, external_id, fields, stale, resolved_at, updated_at)
       values ($1, $2, $3, $4, $5::jsonb, false, $6, $6)
       on conflict (install_id, kind, external_id)
       do update set fields = excluded.fields, stale = false, resolved_at = excluded.resolved_at, updated_at = excluded.updated_at,
                     revision = nextval('reference_revisions')
         where reference_records.revision < $7::bigint
       returning id`,
      [newReferenceId(), input.installId, input.kind, input.externalId, JSON.stringify(input.fields), input.at, input.mark]);
    applied = rows.length > 0;
  }
  const { rows } = await db.query<RecordRow>(
    `with rec as (
       select ${RECORD_COLUMNS} from reference_records where install_id = $1 and kind = $2 and external_id = $3
     ), link as (
       insert into reference_links (install_id, kind, url, access, record_id, resolved_at)
       select $1, $2, $4, 'granted', id, $5 from rec
       on conflict (install_id, kind, url) do update set access = 'granted', record_id = excluded.record_id, resolved_at = excluded.resolved_at
     )
     select * from rec`,
    [input.installId, input.kind, input.externalId, input.url, input.at]);
  return { record: rows[0]!, applied };
}

/** Stores a denial for a link (cached like a grant). */
export async function storeDenied(db: Db, input: { installId: string; kind: string; url: string; access: string; at: Date }): Promise<void> {
  await db.query(
    `insert into reference_links (install_id, kind, url, access, record_id, resolved_at) values ($1, $2, $3, $4, null, $5)
     on conflict (install_id, kind, url) do update set access = excluded.access, record_id = null, resolved_at = excluded.resolved_at`,
    [input.installId, input.kind, input.url, input.access, input.at]);
}

export async function findRecord(db: Db, installId: string, kind: string, externalId: string): Promise<RecordRow | undefined> {
  const { rows } = await db.query<RecordRow>(
    `select ${RECORD_COLUMNS} from reference_records where install_id = $1 and kind = $2 and external_id = $3`, [installId, kind, externalId]);
  return rows[0];
}

/**
 * Applies a push when its version is above the stored one (or creates the record): `fields` are
 * merged into the stored ones, a null removing the field. Answers the record when applied,
 * `undefined` when a newer or equal version is stored.
 */
export async function applyPush(db: Db, input: { installId: string; kind: string; externalId: string; set: Record<string, unknown>; unset: string[]; version: number; at: Date }): Promise<RecordRow | undefined> {
  const { rows } = await db.query<RecordRow>(
    `insert into reference_records (id, install_id, kind, external_id, fields, version, updated_at)
     values ($1, $2, $3, $4, $5::jsonb, $6, $7)
     on conflict (install_id, kind, external_id)
     do update set fields = (reference_records.fields - $8::text[]) || excluded.fields, version = excluded.version, updated_at = excluded.updated_at,
                   revision = nextval('reference_revisions')
       where reference_records.version is null or reference_records.version < excluded.version
     returning ${RECORD_COLUMNS}`,
    [newReferenceId(), input.installId, input.kind, input.externalId, JSON.stringify(input.set), input.version, input.at, input.unset]);
  return rows[0];
}

/**
 * Marks a record to be resolved again on its next view; false when there is no such record. It is a
 * write: a resolve sent before it loses (and the record stays stale, so the next view resolves again).
 */
export async function markStale(db: Db, installId: string, kind: string, externalId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `update reference_records set stale = true, updated_at = $4, revision = nextval('reference_revisions')
      where install_id = $1 and kind = $2 and external_id = $3`, [installId, kind, externalId, at]);
  return (rowCount ?? 0) > 0;
}

/**
 * Replaces a record's block with an action result's tree and table, only if the record is still at
 * `seenRevision` (a resolve or push since then is newer and stands); undefined otherwise.
 */
export async function writeRecordBlock(db: Db, input: { id: string; seenRevision: string; block: { tree: unknown; actions: unknown }; at: Date }): Promise<RecordRow | undefined> {
  const { rows } = await db.query<RecordRow>(
    `update reference_records set fields = jsonb_set(fields, '{block}', $3::jsonb), updated_at = $4, revision = nextval('reference_revisions')
      where id = $1 and revision = $2::bigint
     returning ${RECORD_COLUMNS}`,
    [input.id, input.seenRevision, JSON.stringify(input.block), input.at]);
  return rows[0];
}

export async function findRecordById(db: Db, id: string): Promise<RecordRow | undefined> {
  const { rows } = await db.query<RecordRow>(`select ${RECORD_COLUMNS} from reference_records where id = $1`, [id]);
  return rows[0];
}
