-- The members' side of features apps feed (docs/decisions/member-features.md).
--
-- Inbox: `notifications.read_at` exists since 010; unread counts read this partial index.
create index notifications_unread_idx on notifications (member_id) where read_at is null;

-- Memories a member edited: when and by whom (the app stays credited with the memory).
alter table memories add column edited_at timestamptz;
alter table memories add column edited_by text references members (id) on delete set null;

-- Reference records get a revision: a monotonically increasing number from one sequence, taken
-- anew by every write (a resolve's fields, a push, a revalidate, an action result's tree). A
-- resolve takes a mark from the same sequence before it is sent and applies its fields only if the
-- record's revision is still below that mark: a push (or any write) that landed while the app was
-- answering is newer, and the older resolve loses. Members act on a reference's block by revision.
create sequence reference_revisions;
alter table reference_records add column revision bigint not null default nextval('reference_revisions');

-- Private answers of commands and message actions: shared (posted as a public answer) or
-- dismissed by the member who ran them, each at most once and never both.
alter table invocations add column shared_at timestamptz;
alter table invocations add column dismissed_at timestamptz;
alter table invocations add constraint invocations_shared_or_dismissed check (shared_at is null or dismissed_at is null);
