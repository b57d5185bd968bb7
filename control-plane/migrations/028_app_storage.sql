-- App storage (docs/decisions/storage.md): a key-value space per app, workspace and install kind, so
-- that a development install's data is apart from the workspace install's, and a reinstall finds the
-- data an uninstall kept. A space holds its usage (keys, bytes) for the quotas; `purge_after` is set
-- when its install is uninstalled (the sweeper removes the space after it) and cleared by a reinstall.
-- Deleting the app or the workspace removes its spaces and entries.
create table app_storage_spaces (
  app_id text not null references apps (id) on delete cascade,
  workspace_id text not null references workspaces (id) on delete cascade,
  kind text not null check (kind in ('workspace', 'dev')),
  keys integer not null default 0 check (keys >= 0),
  bytes bigint not null default 0 check (bytes >= 0),
  purge_after timestamptz,
  primary key (app_id, workspace_id, kind)
);
create index app_storage_spaces_purge_idx on app_storage_spaces (purge_after) where purge_after is not null;

-- Keys compare by their UTF-8 bytes (collation "C"), the order lists answer in. `bytes` is the key's
-- and the value's (compact JSON) UTF-8 bytes, what the quota counts. An expired entry is no longer
-- read and is removed by the sweeper.
create table app_storage_entries (
  app_id text not null,
  workspace_id text not null,
  kind text not null,
  key text collate "C" not null,
  value jsonb not null,
  versionstamp bigint not null,
  bytes integer not null,
  expires_at timestamptz,
  primary key (app_id, workspace_id, kind, key),
  foreign key (app_id, workspace_id, kind) references app_storage_spaces (app_id, workspace_id, kind) on delete cascade
);
create index app_storage_entries_expiry_idx on app_storage_entries (expires_at) where expires_at is not null;

-- One versionstamp per commit, increasing across the whole service (every control plane shares it).
create sequence app_storage_versionstamp_seq;

-- Units of work (docs/decisions/storage.md): what a block action's handler asks for while the
-- action runs (storage commits now, queue messages next), staged under the interaction token's hash
-- and applied in the transaction that applies the action's result, or dropped with a refused one.
-- A unit is open from the delivery until the result is handled; `expires_at` lets the sweeper drop
-- the units of a control plane that died meanwhile.
create table units_of_work (
  key text primary key,
  expires_at timestamptz not null
);
create index units_of_work_expiry_idx on units_of_work (expires_at);
create table unit_of_work_items (
  id bigint generated always as identity primary key,
  unit_key text not null references units_of_work (key) on delete cascade,
  kind text not null,
  payload jsonb not null
);
create index unit_of_work_items_unit_idx on unit_of_work_items (unit_key, id);
