/**
 * @module messaging/search/store
 * SQL of search objects (table of 014_search_objects.sql). Every statement is keyed by the install:
 * an object is only ever read, replaced or deleted by the install that stored it.
 */
import type { Db } from '../../core/db/db.ts';

/** The columns of a search object every view shows (`objectView` in service.ts). */
export interface SearchObjectFields {
  kind: string;
  external_id: string;
  title: string;
  url: string;
  subtitle: string | null;
  updated_at: Date;
}

export interface SearchObjectRow extends SearchObjectFields {
  install_id: string;
  /** null: visible workspace-wide. */
  circle_ids: string[] | null;
}

export interface NewSearchObject {
  installId: string;
  workspaceId: string;
  appId: string;
  kind: string;
  externalId: string;
  title: string;
  url: string;
  subtitle: string | null;
  body: string | null;
  updatedAt: Date;
  circleIds: string[] | null;
  writtenAt: Date;
}

const COLUMNS = 'install_id, kind, external_id, title, url, subtitle, updated_at, circle_ids';

/** The version the install runs (undefined when there is no such install). */
export async function installVersion(db: Db, installId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ version: number }>('select version from installs where id = $1', [installId]);
  return rows[0]?.version;
}

/**
 * Inserts the object, or replaces the stored one unless the stored one is newer (`updatedAt`
 * strictly later). Answers the row written, or undefined when a newer copy was kept.
 */
export async function upsertSearchObject(db: Db, o: NewSearchObject): Promise<SearchObjectRow | undefined> {
  const { rows } = await db.query<SearchObjectRow>(
    `insert into search_objects (install_id, kind, external_id, workspace_id, app_id, title, url, subtitle, body, updated_at, circle_ids, written_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::text[], $12)
     on conflict (install_id, kind, external_id) do update set
       title = excluded.title, url = excluded.url, subtitle = excluded.subtitle, body = excluded.body,
       updated_at = excluded.updated_at, circle_ids = excluded.circle_ids, written_at = excluded.written_at
     where search_objects.updated_at <= excluded.updated_at
     returning ${COLUMNS}`,
    [o.installId, o.kind, o.externalId, o.workspaceId, o.appId, o.title, o.url, o.subtitle, o.body, o.updatedAt, o.circleIds, o.writtenAt]);
  return rows[0];
}

export async function findSearchObject(db: Db, installId: string, kind: string, externalId: string): Promise<SearchObjectRow | undefined> {
  const { rows } = await db.query<SearchObjectRow>(
    `select ${COLUMNS} from search_objects where install_id = $1 and kind = $2 and external_id = $3`, [installId, kind, externalId]);
  return rows[0];
}

/** Whether an object was there to delete. */
export async function deleteSearchObject(db: Db, installId: string, kind: string, externalId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from search_objects where install_id = $1 and kind = $2 and external_id = $3', [installId, kind, externalId]);
  return rowCount > 0;
}

/** What the reach rule needs to know about each circle of the workspace among `circleIds`. */
export interface CircleReachRow {
  id: string;
  visibility: 'public' | 'private';
  connected: boolean;
  read_only: boolean;
  app_invited: boolean;
  developer_is_member: boolean;
}

/**
 * The facts of apps/guards/reach.ts for many circles in one statement (a visibility lists up to 50).
 * The developer of a dev install is the owner of its (development) app.
 */
export async function circleReachFacts(db: Db, workspaceId: string, appId: string, circleIds: string[]): Promise<CircleReachRow[]> {
  const { rows } = await db.query<CircleReachRow>(
    `select c.id, c.visibility, c.connected, c.read_only,
       exists (select 1 from circle_app_invitations i where i.circle_id = c.id and i.app_id = $3) as app_invited,
       exists (select 1 from circle_members m join apps a on a.owner_member_id = m.member_id
               where m.circle_id = c.id and a.id = $3) as developer_is_member
     from circles c where c.id = any($1::text[]) and c.workspace_id = $2`, [circleIds, workspaceId, appId]);
  return rows;
}

/** A search object a member may see, with the app that stored it. */
export interface VisibleSearchRow extends SearchObjectFields {
  app_id: string;
  app_name: string;
}

export interface VisibleSearch {
  workspaceId: string;
  memberId: string;
  /** Words typed by the member; null lists every visible object. */
  text: string | null;
  appId: string | null;
  kind: string | null;
  offset: number;
  /** Rows to read (a page plus one, to know whether another follows). */
  limit: number;
}

/**
 * Objects the member may see, best match first (newest first without words):
 *
 * - of active installs of the workspace, for kinds still searchable in the version each runs
 *   (`allowed`); a development install's objects only for its developer (the app's owner);
 * - visible workspace-wide, or in a circle the member sees (public, or private and a member: `seen`);
 * - matching every word typed, each word also as the start of a longer one. The words are the
 *   member's text cut into lexemes by the same parser that indexed the objects, then quoted as
 *   prefix terms (quotes and backslashes escaped), so no input is read as query syntax; text
 *   without any word matches nothing.
 */
export async function searchVisibleObjects(db: Db, s: VisibleSearch): Promise<VisibleSearchRow[]> {
  const order = `${s.text === null ? '' : 'rank desc, '}updated_at desc, install_id, kind, external_id`;
  const { rows } = await db.query<VisibleSearchRow>(
    `with allowed as (
       select i.id as install_id, r ->> 'kind' as kind
       from installs i
       join apps a on a.id = i.app_id
       join app_versions v on v.app_id = i.app_id and v.version = i.version
       cross join lateral jsonb_array_elements(case when jsonb_typeof(v.manifest -> 'references') = 'array' then v.manifest -> 'references' else '[]'::jsonb end) r
       where i.workspace_id = $1 and i.status = 'active' and (i.kind = 'workspace' or a.owner_member_id = $2)
         and r -> 'searchable' = 'true'::jsonb and ($4::text is null or a.id = $4)
     ),
     seen as (
       select array(select c.id from circles c where c.workspace_id = $1
         and (c.visibility = 'public' or exists (select 1 from circle_members m where m.circle_id = c.id and m.member_id = $2))) as ids
     ),
     words as (
       select case when $3::text is null then null else (
         select string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')::tsquery from unnest(to_tsvector('simple', $3::text))
       ) end as query
     ),
     page as (
       -- The allowed set is small (kinds of the workspace's installs): checked as a hashed
       -- semi-join, and apps are joined for the page's rows only (50,000 objects: ~37 ms listing).
       select o.install_id, o.app_id, o.kind, o.external_id, o.title, o.url, o.subtitle, o.updated_at,
         ${s.text === null ? '0::real' : 'ts_rank(o.search, words.query)'} as rank
       from search_objects o cross join seen cross join words
       where o.workspace_id = $1
         and ($5::text is null or o.kind = $5)
         and (o.circle_ids is null or o.circle_ids && seen.ids)
         and ($3::text is null or o.search @@ words.query)
         and (o.install_id, o.kind) in (select install_id, kind from allowed)
       order by ${order}
       limit $6 offset $7
     )
     select p.app_id, a.name as app_name, p.kind, p.external_id, p.title, p.url, p.subtitle, p.updated_at
     from page p join apps a on a.id = p.app_id
     order by ${order}`,
    [s.workspaceId, s.memberId, s.text, s.appId, s.kind, s.limit, s.offset]);
  return rows;
}
