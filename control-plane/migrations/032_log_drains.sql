-- Log drains (docs/decisions/log-drains.md): an HTTPS endpoint per app that receives the app's log
-- lines, batched and signed. A drain is a cursor over app_logs (`after_seq`: every line up to it
-- was delivered, or was already there when the drain was made), so storing lines costs nothing
-- more: the shipper reads what is new. A failed batch is retried as the same range (`retry_through`)
-- under the same webhook-id, so a receiver may drop repeats by id.
create table app_log_drains (
  id text primary key,
  app_id text not null references apps (id) on delete cascade,
  url text not null,
  secret_enc text not null,
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  after_seq bigint not null,
  retry_through bigint,
  state text not null default 'active' check (state in ('active', 'disabled')),
  disabled_reason text,
  failures integer not null default 0,
  failing_since timestamptz,
  next_attempt_at timestamptz,
  lease_until timestamptz,
  last_status integer,
  last_error text,
  last_delivered_at timestamptz,
  created_at timestamptz not null
);
create index app_log_drains_app on app_log_drains (app_id);
create index app_log_drains_active on app_log_drains (next_attempt_at) where state = 'active';
