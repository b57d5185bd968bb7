-- Schedules and queues (issue 23; docs/decisions/schedules.md, docs/decisions/queues.md).
--
-- `install_schedules` holds, per install and schedule of the version it runs, when it is next due.
-- The firing loops of every control plane claim due rows with FOR UPDATE SKIP LOCKED, write one
-- `schedule.fired` outbox event per firing and move `next_due_at` on, in one transaction. The
-- unique `firing_key` of `outbox_events` (install, schedule, due time) makes a second firing of
-- the same due time impossible whatever the loops do: no leader is needed.

create table install_schedules (
  install_id text not null references installs (id) on delete cascade,
  name text not null,
  app_id text not null references apps (id) on delete cascade,
  -- The install's version these rows were read from: a different version means read them again.
  version integer not null,
  cron text not null,
  time_zone text not null,
  -- Null: the expression fires no more.
  next_due_at timestamptz,
  -- The due time of the last firing, the event it wrote and when.
  last_due_at timestamptz,
  last_event_id text,
  last_fired_at timestamptz,
  -- Due times passed without a firing because the install was suspended or paused.
  skipped integer not null default 0,
  created_at timestamptz not null,
  primary key (install_id, name)
);
create index install_schedules_due_idx on install_schedules (next_due_at) where next_due_at is not null;
create index install_schedules_app_idx on install_schedules (app_id, name);

-- What makes a firing unique: `schedule:<name>:<due time>` per install. Other kinds of outbox
-- rows leave it null.
alter table outbox_events add column firing_key text;
create unique index outbox_events_firing_idx on outbox_events (install_id, firing_key) where firing_key is not null;

-- Queues: a message is an outbox event (`queue.message`) due at `deliver_at` (its send plus its
-- delay); its delivery gets the app's `maxAttempts` (`max_attempts`; null: the outbox's 20).
alter table outbox_events add column deliver_at timestamptz;
alter table deliveries add column max_attempts integer;

-- A `key` sent within the dedupe window names the message it sent; a later send with it answers
-- that message instead of sending again. Rows past `expires_at` are reused or pruned.
create table queue_keys (
  install_id text not null references installs (id) on delete cascade,
  key text not null,
  message_id text not null,
  deliver_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (install_id, key)
);
create index queue_keys_expires_idx on queue_keys (expires_at);

-- What an install's queue holds (bytes of bodies not yet acknowledged), for the queued-bytes limit
-- and the console, without summing payloads.
alter table outbox_events add column queued_bytes integer;
create index deliveries_queue_idx on deliveries (install_id, status) where type = 'queue.message';

-- Deliveries for outbox rows: as in 008, plus the delivery types that are not events. A schedule
-- in the manifest is its own subscription (`schedule.fired`); so is the manifest's `queue`
-- (`queue.message`, with the queue's attempts).
create or replace function deliveries_from_outbox() returns trigger language plpgsql as $$
declare
  target record;
begin
  select i.app_id, i.deliveries_paused_at, v.manifest -> 'events' as events, v.manifest -> 'queue' as queue into target
    from installs i join app_versions v on v.app_id = i.app_id and v.version = i.version
   where i.id = new.install_id;
  if found and (new.type = 'schedule.fired'
                or (new.type = 'queue.message' and jsonb_typeof(target.queue) = 'object')
                or (jsonb_typeof(target.events) = 'array' and jsonb_exists(target.events, new.type))) then
    insert into deliveries (id, app_id, install_id, class, type, event_id, status, next_attempt_at, created_at, max_attempts)
    values (new.id, target.app_id, new.install_id, 'lifecycle', new.type, new.id,
            case when target.deliveries_paused_at is null then 'pending' else 'paused' end,
            coalesce(new.deliver_at, new.created_at), new.created_at,
            case when new.type = 'queue.message' then coalesce((target.queue ->> 'maxAttempts')::int, 5) end);
    perform pg_notify(left('platform_outbox_' || current_schema(), 63), '');
  end if;
  return null;
end
$$;
