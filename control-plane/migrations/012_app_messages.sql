-- Messages apps post (docs/decisions/app-messages.md): replies (`POST /v0/replies`) and stream
-- events (`POST /v0/streams/events`). An app's message is an ordinary message with no member
-- author, `author_app_id` naming the app (010) and `app_author` saying how it looked when posted:
-- `{ name, persona: { name?, avatarUrl? } | null }` (the app's name then, the persona of a stream
-- event). `app_author` is what tells an app's message from one whose member was deleted.
alter table messages add column app_author jsonb;

-- An app's stream in a circle: created by the first event, named after the app with its icon (the
-- manifest's asset id), one per app and circle. Revoked streams refuse events (410) but stay, so a
-- revocation cannot be undone by the app posting again.
create table app_streams (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  circle_id text not null references circles (id) on delete cascade,
  app_id text not null references apps (id) on delete cascade,
  name text not null,
  icon text,
  created_at timestamptz not null,
  revoked_at timestamptz,
  revoked_by text references members (id) on delete set null,
  unique (circle_id, app_id)
);

-- The circle's app-streams log: conversations a stream started carry their stream.
alter table conversations add column stream_id text references app_streams (id) on delete set null;
create index conversations_stream_idx on conversations (stream_id, created_at, id) where stream_id is not null;

-- `threadKey` → the conversation its first event started. A deleted conversation takes its key with
-- it: the next event with that key starts a new conversation.
create table app_stream_threads (
  stream_id text not null references app_streams (id) on delete cascade,
  thread_key text not null,
  conversation_id text not null references conversations (id) on delete cascade,
  created_at timestamptz not null,
  primary key (stream_id, thread_key)
);

-- `idempotencyKey` of stream events, per install, written in the event's own transaction: a resend
-- within 24 hours answers `response` (the first answer) and posts nothing. Rows older than the
-- window are overwritten by the next use of their key and swept per install.
create table app_idempotency_keys (
  install_id text not null references installs (id) on delete cascade,
  key text not null,
  response jsonb not null,
  created_at timestamptz not null,
  primary key (install_id, key)
);
create index app_idempotency_keys_age_idx on app_idempotency_keys (install_id, created_at);
