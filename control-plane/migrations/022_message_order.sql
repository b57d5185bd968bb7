-- One ordering key for messages: (created_at, seq), the order they were written, also within one
-- millisecond (docs/decisions/hardening.md). Every list, its cursors and the first post of a
-- conversation use it; the indexes follow (they were on (…, created_at, id)).
create index messages_conversation_seq_idx on messages (conversation_id, created_at, seq) where reply_to is null;
create index messages_chat_seq_idx on messages (circle_id, created_at, seq) where conversation_id is null and reply_to is null;
create index messages_reply_seq_idx on messages (reply_to, created_at, seq);
create index messages_direct_seq_idx on messages (direct_chat_id, created_at, seq);
drop index messages_conversation_idx;
drop index messages_chat_idx;
drop index messages_reply_idx;
drop index messages_direct_idx;
