-- The members' side of features apps feed (docs/decisions/member-features.md).
--
-- Inbox: `notifications.read_at` exists since 010; unread counts read this partial index.
create index notifications_unread_idx on notifications (member_id) where read_at is null;
