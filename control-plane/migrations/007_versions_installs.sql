-- What the apps, versions and installs features keep beside the tables of 005: verified domains,
-- environment variables, whether a workspace allows apps, and the outbox of lifecycle events.
-- Values of environment variables are always stored sealed (AES-256-GCM under the master key).

-- Latest version of a target (manifest sync, uploads, GET manifest) without scanning every version.
create index app_versions_target_idx on app_versions (app_id, target, version);

-- A domain an app claims; verified once its TXT token is published at `_platform-verify.<domain>`.
create table app_domains (
  app_id text not null references apps (id) on delete cascade,
  domain text not null,
  token text not null,
  verified_at timestamptz,
  created_at timestamptz not null,
  primary key (app_id, domain)
);

-- Environment variables per app and target. `secret` values are write-only through the API.
create table app_env_vars (
  app_id text not null references apps (id) on delete cascade,
  target text not null check (target in ('preview', 'production')),
  key text not null,
  value_enc text not null,
  secret boolean not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (app_id, target, key)
);

-- No row: apps are available in the workspace. Owners and admins may turn them off.
create table workspace_app_settings (
  workspace_id text primary key references workspaces (id) on delete cascade,
  apps_enabled boolean not null,
  updated_by text references members (id) on delete set null,
  updated_at timestamptz not null
);

-- Lifecycle events written in the same transaction as the state change that caused them
-- (`app.installed`, `app.uninstalled`, `app.reconsentRequired`). `payload` is the envelope's `data`;
-- the lifecycle workers add their own delivery and attempt bookkeeping.
create table outbox_events (
  id text primary key,
  install_id text not null references installs (id) on delete cascade,
  type text not null,
  payload jsonb not null,
  created_at timestamptz not null
);
create index outbox_events_created_idx on outbox_events (created_at, id);
create index outbox_events_install_idx on outbox_events (install_id, created_at);
