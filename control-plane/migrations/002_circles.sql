-- Circles, their members, and the apps invited to private circles. A connected circle is shared
-- with another workspace; when the connection ends it stays marked connected and becomes read-only.
create table circles (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  name text not null,
  visibility text not null check (visibility in ('public', 'private')),
  chat boolean not null default false,
  connected boolean not null default false,
  connected_workspace_id text references workspaces (id) on delete set null,
  read_only boolean not null default false,
  created_by text references members (id) on delete set null,
  created_at timestamptz not null,
  connected_at timestamptz,
  connection_ended_at timestamptz,
  check (connected or not read_only)
);
create index circles_workspace_idx on circles (workspace_id, created_at, id);

create table circle_members (
  circle_id text not null references circles (id) on delete cascade,
  member_id text not null references members (id) on delete cascade,
  added_at timestamptz not null,
  primary key (circle_id, member_id)
);
create index circle_members_member_idx on circle_members (member_id);

-- app_id has no foreign key: the apps table arrives with the apps feature.
create table circle_app_invitations (
  circle_id text not null references circles (id) on delete cascade,
  app_id text not null,
  invited_by text references members (id) on delete set null,
  created_at timestamptz not null,
  primary key (circle_id, app_id)
);
create index circle_app_invitations_app_idx on circle_app_invitations (app_id);
