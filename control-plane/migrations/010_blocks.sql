-- Blocks (docs/decisions/blocks.md): interactive cards an install puts into a conversation or a
-- circle's chat. A block lives in a message (the messages model: the message carries the block's
-- id and names the app as its author; its `content` is the block's summary as a one-paragraph
-- document, so readers that know nothing of blocks still show something sensible).
--
-- `version` counts changes of the block object (state, finality): it is what `expectedVersion`
-- compares. `revision` counts trees: action references are only meaningful within one revision.
-- The action table stays here, never in front of a member.

alter table messages add column block_id text;
alter table messages add column author_app_id text references apps (id) on delete set null;
create unique index messages_block_idx on messages (block_id) where block_id is not null;

create table blocks (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  app_id text not null references apps (id) on delete cascade,
  install_id text not null references installs (id) on delete cascade,
  type text not null,
  -- The circle never changes; the conversation is read through the message (chat messages get filed).
  circle_id text references circles (id) on delete cascade,
  message_id text references messages (id) on delete cascade,
  props jsonb not null,
  state jsonb not null,
  version integer not null default 1,
  revision integer not null default 1,
  tree jsonb not null,
  actions jsonb not null,
  -- sha256 of the tree and table as the app sent them (jsonb reorders keys): an identical render
  -- keeps its revision, so members' references stay valid.
  tree_hash text not null,
  summary text not null,
  rendered_at timestamptz not null,
  -- When a `block.render` is due: state changed without a tree, revalidation, or `staleAfter`
  -- passed; null when none is (final blocks, blocks without `staleAfter`).
  render_due_at timestamptz,
  final boolean not null default false,
  final_summary text,
  final_at timestamptz,
  -- A deferred action (`202`): `{ ref, invocationId, memberId, since, until }`.
  pending jsonb,
  -- The last failed delivery: `{ memberId (null: everyone), message, at }`.
  error jsonb,
  -- The last `openUrl`: `{ memberId, url, host, at }`.
  open_link jsonb,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index blocks_install_idx on blocks (install_id, created_at desc, id desc);
create index blocks_install_type_idx on blocks (install_id, type) where not final;
create index blocks_state_idx on blocks using gin (state jsonb_path_ops);

-- Viewer inputs (the manifest's `inputs`): each member's pick, a list of values even when single.
create table block_inputs (
  block_id text not null references blocks (id) on delete cascade,
  name text not null,
  member_id text not null references members (id) on delete cascade,
  value jsonb not null,
  updated_at timestamptz not null,
  primary key (block_id, name, member_id)
);

-- Inbox notifications a member receives from apps (`notify` in action results; the notifications
-- endpoint writes here too).
create table notifications (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  member_id text not null references members (id) on delete cascade,
  app_id text references apps (id) on delete cascade,
  install_id text references installs (id) on delete cascade,
  text text not null,
  url text,
  block_id text references blocks (id) on delete cascade,
  created_at timestamptz not null,
  read_at timestamptz
);
create index notifications_member_idx on notifications (member_id, created_at desc, id desc);
