-- E-mail to members (the owner of an app whose deliveries were paused after three days of
-- failures), decisions and calls: the causes of `decision.published`, `decision.updated` and
-- `call.recapReady` (docs/events.md).

-- Where the service e-mails a member; members without one still get their mail in the mailbox.
create table member_mail_addresses (
  member_id text primary key references members (id) on delete cascade,
  address text not null,
  updated_at timestamptz not null
);

-- Every mail the service writes, sent or not: the mailbox the console shows. `queued` mails go out
-- over SMTP; `stored` ones stay here (no SMTP configured, or no address known).
create table mail_messages (
  id text primary key,
  member_id text not null references members (id) on delete cascade,
  to_address text,
  subject text not null,
  body text not null,
  status text not null check (status in ('queued', 'sent', 'stored', 'failed')),
  attempts integer not null default 0,
  -- Queued mail: when a sender may take it (a sender holds it until then while sending; failures
  -- push it later).
  next_attempt_at timestamptz,
  last_error text,
  created_at timestamptz not null,
  sent_at timestamptz
);
create index mail_messages_member_idx on mail_messages (member_id, created_at desc, id desc);
create index mail_messages_queued_idx on mail_messages (next_attempt_at) where status = 'queued';

create table decisions (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  circle_id text not null references circles (id) on delete cascade,
  conversation_id text references conversations (id) on delete set null,
  title text not null,
  body text not null,
  version integer not null default 1,
  created_by text references members (id) on delete set null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index decisions_circle_idx on decisions (circle_id, created_at, id);

create table calls (
  id text primary key,
  workspace_id text not null references workspaces (id) on delete cascade,
  circle_id text not null references circles (id) on delete cascade,
  title text not null,
  recap text,
  recap_at timestamptz,
  version integer not null default 1,
  started_by text references members (id) on delete set null,
  created_at timestamptz not null
);
create index calls_circle_idx on calls (circle_id, created_at, id);

create table call_participants (
  call_id text not null references calls (id) on delete cascade,
  member_id text not null references members (id) on delete cascade,
  primary key (call_id, member_id)
);
