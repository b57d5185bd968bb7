-- Workspaces, their members and the members' API keys (stored as sha256, never in clear).
create table workspaces (
  id text primary key,
  name text not null,
  created_at timestamptz not null
);

create table members (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  name text not null,
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null
);
create index members_workspace_idx on members (workspace_id, created_at, id);

create table api_keys (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  member_id text not null references members (id) on delete cascade,
  name text not null,
  key_hash text not null unique,
  hint text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_member_idx on api_keys (member_id, created_at, id);
