-- Workspace memories apps save (`POST /v0/memories`, docs/decisions/notifications-memories.md),
-- and an insertion order for inbox notifications.
--
-- `seq` orders each list newest first even when several rows share a timestamp (a `notify` of an
-- action result writes up to 20 at one instant); pages are keyed by (created_at, seq).

alter table notifications add column seq bigint generated always as identity;
create index notifications_member_seq_idx on notifications (member_id, created_at desc, seq desc);

-- A memory is workspace knowledge credited to the app that saved it: it outlives the app and its
-- install (shown without an app once the app is deleted), like the messages an app posted.
-- `audience_member_id` null: every member of the workspace sees it; set: only that member (what a
-- development install saves is seen by its developer alone).
create table memories (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  app_id text references apps (id) on delete set null,
  install_id text references installs (id) on delete set null,
  audience_member_id text references members (id) on delete cascade,
  title text,
  text text not null,
  created_at timestamptz not null,
  seq bigint generated always as identity
);
create index memories_workspace_idx on memories (workspace_id, created_at desc, seq desc);
