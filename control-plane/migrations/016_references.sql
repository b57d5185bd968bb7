-- Link references (docs/decisions/references.md): what `reference.resolve` answered and what apps
-- pushed with `PUT /v0/references`.
--
-- `reference_records`: one row per (install, kind, externalId), shared by every occurrence of that
-- object in the workspace (an install lives in one workspace), so one push reaches all of them.
-- `fields` holds the granted resolution without `url`, `access` and `externalId` (the block's tree
-- and action table included); `version` is the last applied push (null: only ever resolved); `stale`
-- marks a record the app asked to revalidate: the next view resolves it again.
create table reference_records (
  id text primary key,
  install_id text not null references installs (id) on delete cascade,
  kind text not null,
  external_id text not null,
  fields jsonb not null,
  version bigint,
  stale boolean not null default false,
  resolved_at timestamptz,
  updated_at timestamptz not null,
  unique (install_id, kind, external_id)
);

-- `reference_links`: what a link resolved to, per (install, kind, url): a record (`granted`) or a
-- denial (`unauthorized`, `forbidden`, `notFound`; cached like a grant). `unavailable` is never
-- stored, so such a link is resolved again on its next view.
create table reference_links (
  install_id text not null references installs (id) on delete cascade,
  kind text not null,
  url text not null,
  access text not null check (access in ('granted', 'unauthorized', 'forbidden', 'notFound')),
  record_id text references reference_records (id) on delete cascade,
  resolved_at timestamptz not null,
  primary key (install_id, kind, url),
  check ((access = 'granted') = (record_id is not null))
);
create index reference_links_record_idx on reference_links (record_id);
