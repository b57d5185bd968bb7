-- The members' side of features apps feed (docs/decisions/member-features.md).
--
-- Inbox: `notifications.read_at` exists since 010; unread counts read this partial index.
create index notifications_unread_idx on notifications (member_id) where read_at is null;

-- Memories a member edited: when and by whom (the app stays credited with the memory).
alter table memories add column edited_at timestamptz;
alter table memories add column edited_by text references members (id) on delete set null;
