-- Usage over time (docs/decisions/usage.md): exact counters per app, install and minute, and the
-- same per hour, written together at ingest (the roll-up happens as the counts arrive, so an hour is
-- always the exact sum of its minutes, late flushes included). Minute rows are kept 24 hours and hour
-- rows 90 days (pruned by the usage loop, apps/usage/loop.ts). `install_id` is '' for requests that
-- belong to no install (a hosted app's public routes); no foreign key to installs: an uninstalled
-- install's usage stays readable until it ages out, as a bill would need.
create table app_usage (
  app_id text not null references apps (id) on delete cascade,
  install_id text not null,
  step text not null check (step in ('minute', 'hour')),
  bucket timestamptz not null,
  requests_ok bigint not null default 0,
  requests_error bigint not null default 0,
  requests_cpu_limit bigint not null default 0,
  requests_memory_limit bigint not null default 0,
  requests_deadline bigint not null default 0,
  requests_crashed bigint not null default 0,
  deliveries_succeeded bigint not null default 0,
  deliveries_failed bigint not null default 0,
  cpu_us bigint not null default 0,
  egress_calls bigint not null default 0,
  egress_bytes_out bigint not null default 0,
  egress_bytes_in bigint not null default 0,
  -- A gauge: the bytes the install's storage space held when sampled in that minute (the hour's
  -- row keeps the highest sample of the hour); null when no sample was taken.
  storage_bytes bigint,
  storage_reads bigint not null default 0,
  storage_writes bigint not null default 0,
  queue_sent bigint not null default 0,
  queue_delivered bigint not null default 0,
  primary key (app_id, step, bucket, install_id)
);
create index app_usage_prune_idx on app_usage (step, bucket);

-- Flushes of runtime nodes' counters already counted, by their idempotency key: a flush retried
-- after its answer was lost is recognised and not counted twice. Kept 24 hours.
create table app_usage_flushes (
  key text primary key,
  received_at timestamptz not null
);
create index app_usage_flushes_received_idx on app_usage_flushes (received_at);
