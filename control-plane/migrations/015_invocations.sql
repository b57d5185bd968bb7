-- Runs of commands and message actions (docs/decisions/invocations.md). One row per run, written
-- before the delivery: `pending` while the app works on a deferred run (until `deadline_at`, 15
-- minutes), then `answered` or `failed` exactly once (the respond endpoint claims the row by moving
-- it out of `pending`). A private answer lives on the row (`answer`) for 24 hours (`private_until`);
-- a public one is posted as the app's messages (`message_ids`, `block_id`).
create table invocations (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  install_id text not null references installs (id) on delete cascade,
  app_id text not null references apps (id) on delete cascade,
  member_id text not null references members (id) on delete cascade,
  kind text not null check (kind in ('command', 'messageAction')),
  name text not null,
  surface jsonb not null,
  -- Where the answer goes (invocations/apply.ts `Place`): the surface, or the thread of the acted-on message.
  place jsonb not null,
  status text not null check (status in ('running', 'pending', 'applying', 'answered', 'failed')),
  visibility text check (visibility in ('public', 'private')),
  answer jsonb,
  notice jsonb,
  message_ids jsonb not null default '[]',
  block_id text,
  error jsonb,
  created_at timestamptz not null,
  deadline_at timestamptz,
  answered_at timestamptz,
  private_until timestamptz
);
create index invocations_member_idx on invocations (member_id, created_at, id);
create index invocations_install_idx on invocations (install_id);
