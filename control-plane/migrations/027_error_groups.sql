-- Error groups (docs/decisions/errors.md): a hosted app's error and limit lines and every app's
-- failed deliveries, grouped by a fingerprint (apps/errors/fingerprint.ts). Counts are kept per
-- version, so a reader who may see preview versions only sums those, and a group new on a version
-- is its lowest version. Groups outlive the lines they link to (examples may be pruned first) and
-- are pruned themselves once unseen for ERROR_GROUP_RETENTION_DAYS.
create table app_error_groups (
  app_id text not null references apps (id) on delete cascade,
  fingerprint text not null,
  level text not null check (level in ('error', 'limit', 'delivery')),
  name text not null,
  -- The masked message the fingerprint hashed, and the latest occurrence's own text.
  message text not null,
  sample text not null,
  top_frame jsonb,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  primary key (app_id, fingerprint)
);
create index app_error_groups_seen on app_error_groups (last_seen);

-- version 0: an occurrence no version is known for.
create table app_error_versions (
  app_id text not null,
  fingerprint text not null,
  version integer not null,
  count bigint not null,
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  -- The newest occurrences, newest first: log line ids (`seq`) or delivery ids.
  examples text[] not null,
  primary key (app_id, fingerprint, version),
  foreign key (app_id, fingerprint) references app_error_groups (app_id, fingerprint) on delete cascade
);

create table app_error_installs (
  app_id text not null,
  fingerprint text not null,
  version integer not null,
  install_id text not null,
  primary key (app_id, fingerprint, version, install_id),
  foreign key (app_id, fingerprint) references app_error_groups (app_id, fingerprint) on delete cascade
);
