-- Bytes waiting in each install's queue, kept as a running count (issue 23's figures,
-- docs/decisions/queues.md): the send's limit check summed `queued_bytes` over every undelivered
-- message of the install, O(backlog) per send. The count is the bytes of the install's
-- `queue.message` deliveries whose status is pending or paused (what the sum counted), kept exactly
-- by the outbox trigger that writes queue deliveries and by statement triggers on `deliveries`: a
-- message written, delivered, dead, cancelled, sent again (dead -> pending counts again) or deleted
-- moves it, whichever statement does it.
--
-- The delivery carries its message's bytes (copied from the event by the outbox trigger, 030's
-- function with the one column added), so the triggers read only their transition tables: no join,
-- and a delivery deleted with its event (a cascade) still knows what it held.
--
-- Cost on other deliveries statements: none on inserts (a click's delivery); on updates and
-- deletes (claims, outcomes, retention, batches of rows) one trigger call per statement that stops
-- after one look at its rows when none is a queue message. Counters are written in install-id order in one statement, so two statements
-- touching the same installs lock their counters in the same order (no deadlock).

alter table deliveries add column queued_bytes integer;
update deliveries d set queued_bytes = e.queued_bytes
  from outbox_events e where e.id = d.event_id and d.type = 'queue.message';

create table queue_usage (
  install_id text primary key references installs (id) on delete cascade,
  queued_bytes bigint not null default 0
);

insert into queue_usage (install_id, queued_bytes)
select install_id, sum(coalesce(queued_bytes, 0)) from deliveries
 where type = 'queue.message' and status in ('pending', 'paused')
 group by install_id;

-- 030's function, with the message's bytes copied to its delivery and counted in the same
-- statement: the only writer of queue deliveries, so deliveries written elsewhere (a click's
-- interactive delivery) pay no insert trigger.
create or replace function deliveries_from_outbox_rows() returns trigger language plpgsql as $$
declare
  made integer;
begin
  with inserted as (
    insert into deliveries (id, app_id, install_id, class, type, event_id, status, next_attempt_at, created_at, max_attempts, queued_bytes)
    select n.id, i.app_id, n.install_id, 'lifecycle', n.type, n.id,
           case when i.deliveries_paused_at is null then 'pending' else 'paused' end,
           coalesce(n.deliver_at, n.created_at), n.created_at,
           case when n.type = 'queue.message' then coalesce((v.manifest -> 'queue' ->> 'maxAttempts')::int, 5) end,
           n.queued_bytes
      from new_events n
      join installs i on i.id = n.install_id
      join app_versions v on v.app_id = i.app_id and v.version = i.version
     where n.type = 'schedule.fired'
        or (n.type = 'queue.message' and jsonb_typeof(v.manifest -> 'queue') = 'object')
        or (jsonb_typeof(v.manifest -> 'events') = 'array' and jsonb_exists(v.manifest -> 'events', n.type))
    returning install_id, type, queued_bytes
  ), counted as (
    insert into queue_usage as u (install_id, queued_bytes)
    select install_id, sum(coalesce(queued_bytes, 0)) from inserted where type = 'queue.message'
     group by install_id order by install_id
    on conflict (install_id) do update set queued_bytes = u.queued_bytes + excluded.queued_bytes
  )
  select count(*) into made from inserted;
  if made > 0 then
    perform pg_notify(left('platform_outbox_' || current_schema(), 63), '');
  end if;
  return null;
end
$$;

-- A statement that changes no queue row (claims and outcomes of events, in batches) leaves after
-- one look at its rows.
create function queue_usage_on_update() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from new_rows where type = 'queue.message') then return null; end if;
  insert into queue_usage as u (install_id, queued_bytes)
  select n.install_id, sum(coalesce(n.queued_bytes, 0) * ((n.status in ('pending', 'paused'))::int - (o.status in ('pending', 'paused'))::int))
    from new_rows n join old_rows o on o.id = n.id
   where n.type = 'queue.message' and (n.status in ('pending', 'paused')) <> (o.status in ('pending', 'paused'))
   group by n.install_id order by n.install_id
  on conflict (install_id) do update set queued_bytes = u.queued_bytes + excluded.queued_bytes;
  return null;
end
$$;

-- `exists installs`: a delete cascading from the install has already removed it (and its counter).
create function queue_usage_on_delete() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from old_rows where type = 'queue.message') then return null; end if;
  insert into queue_usage as u (install_id, queued_bytes)
  select o.install_id, -sum(coalesce(o.queued_bytes, 0)) from old_rows o
   where o.type = 'queue.message' and o.status in ('pending', 'paused')
     and exists (select 1 from installs i where i.id = o.install_id)
   group by o.install_id order by o.install_id
  on conflict (install_id) do update set queued_bytes = u.queued_bytes + excluded.queued_bytes;
  return null;
end
$$;

create trigger deliveries_queue_usage_update after update on deliveries
  referencing old table as old_rows new table as new_rows for each statement execute function queue_usage_on_update();
create trigger deliveries_queue_usage_delete after delete on deliveries
  referencing old table as old_rows for each statement execute function queue_usage_on_delete();
