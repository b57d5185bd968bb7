-- Hosted apps' log lines (docs/decisions/logs.md), shipped by the runtime nodes to
-- POST /internal/v1/logs and read by the app's tooling at GET /v0/apps/{app_id}/logs. `seq` orders
-- the lines as they were stored (the cursor and the stream's event ids); `at` is when the node saw
-- them. Rows older than APP_LOG_RETENTION_HOURS are deleted by the hourly maintenance tick.
create table app_logs (
  seq bigint generated always as identity primary key,
  app_id text not null references apps (id) on delete cascade,
  at timestamptz not null,
  received_at timestamptz not null,
  version integer,
  install_id text,
  request_id text,
  delivery_id text,
  kind text not null,
  level text not null,
  status text not null check (status in ('ok', 'error')),
  message text not null,
  -- The `request` line's summary: label, outcome, httpStatus, cpuMs, wallMs, outbound.
  request jsonb,
  -- The sampled CPU profile (Chrome DevTools `.cpuprofile` JSON) on the limit line of a request
  -- stopped at its CPU budget, when the node profiled it; read only by the download endpoint.
  profile text,
  node text not null
);

-- Reading one app's lines newest first (filters apply on top); pruning by age.
create index app_logs_app_seq on app_logs (app_id, seq desc);
create index app_logs_received_at on app_logs (received_at);
