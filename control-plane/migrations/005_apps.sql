-- Apps, their versions and installs: the contract shared by the tooling endpoints (apps, versions,
-- installs) and the credentials (tokens, client credentials). Secrets are stored encrypted
-- (`*_enc`, AES-256-GCM under the master key) or hashed (`*_hash`, sha256), never in clear.
create table apps (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  owner_member_id text not null references members (id),
  slug text not null unique,
  name text not null,
  hosting text not null check (hosting in ('self', 'platform')),
  endpoint_url text,
  private boolean not null default false,
  -- A member's development app (PUT /v0/apps/dev): the slug the manifest asked for, before the suffix.
  dev_base_slug text,
  client_id text not null unique,
  client_secret_hash text not null,
  signing_secret_enc text not null,
  -- During a rotation the previous secret signs too, until it expires (24 hours).
  previous_signing_secret_enc text,
  previous_signing_secret_expires_at timestamptz,
  created_at timestamptz not null
);
create index apps_workspace_idx on apps (workspace_id, created_at, id);
create unique index apps_dev_idx on apps (workspace_id, owner_member_id, dev_base_slug) where dev_base_slug is not null;

create table app_versions (
  app_id text not null references apps (id) on delete cascade,
  version integer not null,
  target text not null check (target in ('preview', 'production')),
  manifest jsonb not null,
  -- sha256 of the canonical manifest JSON: an identical sync returns the latest version.
  manifest_hash text not null,
  bundle_sha256 text,
  bundle_bytes integer,
  created_at timestamptz not null,
  primary key (app_id, version)
);

create table installs (
  id text primary key,
  app_id text not null references apps (id) on delete cascade,
  workspace_id text not null references workspaces (id) on delete cascade,
  kind text not null check (kind in ('workspace', 'dev')),
  -- The version the install runs, and the scopes an admin approved for it.
  version integer not null,
  approved_scopes jsonb not null default '[]',
  -- A published version waiting for an admin's approval because it widens access.
  pending_version integer,
  config_enc text,
  status text not null default 'active' check (status in ('active', 'uninstalled', 'suspended')),
  deliveries_paused_at timestamptz,
  installed_by_member_id text references members (id),
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index installs_app_workspace_kind_idx on installs (app_id, workspace_id, kind) where status <> 'uninstalled';
create index installs_workspace_idx on installs (workspace_id, status);
