-- Deleting a message (docs/decisions/blocks.md): the block it carried is marked removed, not
-- deleted, so its row outlives the message (events already recorded about it stay meaningful and
-- its notifications keep their link). A removed block answers as if absent everywhere and is never
-- delivered about again.
alter table blocks add column removed_at timestamptz;
alter table blocks drop constraint blocks_message_id_fkey;
alter table blocks add constraint blocks_message_id_fkey foreign key (message_id) references messages (id) on delete set null;
