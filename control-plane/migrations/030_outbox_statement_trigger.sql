-- Deliveries for outbox rows, once per statement instead of once per row (issue 23's bench;
-- docs/decisions/queues.md, "Figures"). The rules are those of 008 and 026 unchanged: one delivery
-- per event whose install's running version subscribes to it (a schedule in the manifest is its own
-- subscription, so is the manifest's `queue`, with its attempts), held when the install is paused,
-- due at `deliver_at` (a delayed message) or at once. Set-based, a minute's firings or a batch of
-- messages cost one join and one insert rather than a PL/pgSQL call, a lookup and an insert per row.
--
-- The transition table holds only the rows the statement inserted (a firing left alone by
-- `on conflict do nothing` is not there), and the trigger runs in the writer's transaction, so a
-- delivery exists exactly when its event commits, as before. One notification per statement that
-- made deliveries wakes the delivery loops of every process at commit.

drop trigger outbox_events_deliveries on outbox_events;
drop function deliveries_from_outbox();

create function deliveries_from_outbox_rows() returns trigger language plpgsql as $$
declare
  made integer;
begin
  insert into deliveries (id, app_id, install_id, class, type, event_id, status, next_attempt_at, created_at, max_attempts)
  select n.id, i.app_id, n.install_id, 'lifecycle', n.type, n.id,
         case when i.deliveries_paused_at is null then 'pending' else 'paused' end,
         coalesce(n.deliver_at, n.created_at), n.created_at,
         case when n.type = 'queue.message' then coalesce((v.manifest -> 'queue' ->> 'maxAttempts')::int, 5) end
    from new_events n
    join installs i on i.id = n.install_id
    join app_versions v on v.app_id = i.app_id and v.version = i.version
   where n.type = 'schedule.fired'
      or (n.type = 'queue.message' and jsonb_typeof(v.manifest -> 'queue') = 'object')
      or (jsonb_typeof(v.manifest -> 'events') = 'array' and jsonb_exists(v.manifest -> 'events', n.type));
  get diagnostics made = row_count;
  if made > 0 then
    perform pg_notify(left('platform_outbox_' || current_schema(), 63), '');
  end if;
  return null;
end
$$;

create trigger outbox_events_deliveries after insert on outbox_events
  referencing new table as new_events
  for each statement execute function deliveries_from_outbox_rows();
