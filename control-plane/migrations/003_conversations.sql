-- Conversations in circles, and every kind of message: posts in a conversation, replies (flat
-- threads under a root message), chat messages in circles with chat (conversation_id null until
-- filed), and direct messages between two members.
create table conversations (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  circle_id text not null references circles (id) on delete cascade,
  title text not null,
  status text,
  agreed boolean,
  created_by text references members (id) on delete set null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index conversations_circle_idx on conversations (circle_id, created_at, id);

create table direct_chats (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  member_low text not null references members (id) on delete cascade,
  member_high text not null references members (id) on delete cascade,
  created_at timestamptz not null,
  unique (member_low, member_high),
  check (member_low < member_high)
);

create table messages (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  circle_id text references circles (id) on delete cascade,
  conversation_id text references conversations (id) on delete cascade,
  direct_chat_id text references direct_chats (id) on delete cascade,
  reply_to text references messages (id) on delete cascade,
  author_member_id text references members (id) on delete set null,
  content jsonb,
  markdown text,
  created_at timestamptz not null,
  filed_at timestamptz,
  check ((content is null) <> (markdown is null)),
  check ((circle_id is null) <> (direct_chat_id is null)),
  check (conversation_id is null or circle_id is not null)
);
create index messages_conversation_idx on messages (conversation_id, created_at, id) where reply_to is null;
create index messages_chat_idx on messages (circle_id, created_at, id) where conversation_id is null and reply_to is null;
create index messages_reply_idx on messages (reply_to, created_at, id);
create index messages_direct_idx on messages (direct_chat_id, created_at, id);
