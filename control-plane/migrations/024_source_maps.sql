-- Source maps uploaded with hosted bundles (docs/decisions/logs.md): content-addressed by their own
-- sha256 beside the bundles, in this table (`content`) or, with BUNDLE_STORE=s3, in the object store
-- (`content` null), and tied to the version that was uploaded with one. The bundle collector removes
-- the maps no version refers to, after the same grace period.
create table source_maps (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes integer not null check (size_bytes > 0),
  content bytea,
  stored_at timestamptz not null
);
create index source_maps_stored_at on source_maps (stored_at);

alter table app_versions add column source_map_sha256 text, add column source_map_bytes integer;
create index app_versions_source_map on app_versions (source_map_sha256) where source_map_sha256 is not null;

-- An error line's error as data: { name, message, frames: [{ function, file, line, column, raw }] }.
alter table app_logs add column error jsonb;
