-- Lifecycle deliveries (docs/events.md, docs/decisions/lifecycle.md).
--
-- `outbox_events` (007) holds what happened, one row per install, written in the transaction of
-- its cause. `deliveries` holds the sending state of each: one row per lifecycle event an install
-- subscribes to, created by the trigger below in that same transaction, so no writer of
-- `outbox_events` can forget it. Interactive deliveries are recorded in the same table (class
-- `interactive`, no event row) so the Deliveries page lists both. `delivery_attempts` keeps every
-- attempt. Workers claim due rows with FOR UPDATE SKIP LOCKED and a lease (`lease`,
-- `next_attempt_at` pushed to the lease's end), so a worker that dies mid-batch only delays its
-- rows until the lease runs out.

-- The member who caused the event (`actor` of the envelope), when there is one.
alter table outbox_events add column actor jsonb;
-- Insertion order (created_at ties when one cause records several events).
alter table outbox_events add column seq bigint generated always as identity;

-- Every payload object carries `version` (spec Events, rule 5): messages and conversations count
-- their changes.
alter table messages add column version integer not null default 1;
alter table conversations add column version integer not null default 1;
-- Insertion order of messages: which top-level message of a conversation came first when two
-- share a timestamp (the first is the conversation's post; later ones reply to it).
alter table messages add column seq bigint generated always as identity;

create table deliveries (
  -- The envelope id and `webhook-id`: the event id for lifecycle deliveries, stable across retries.
  id text primary key,
  app_id text not null references apps (id) on delete cascade,
  install_id text not null references installs (id) on delete cascade,
  class text not null check (class in ('lifecycle', 'interactive')),
  type text not null,
  event_id text unique references outbox_events (id) on delete cascade,
  -- pending: due at next_attempt_at; paused: held while the install's deliveries are paused;
  -- dead: 20 attempts failed (kept, redeliverable); cancelled: the install was uninstalled first;
  -- failed: an interactive delivery that failed (never retried).
  status text not null check (status in ('pending', 'delivered', 'paused', 'dead', 'cancelled', 'failed')),
  -- Every attempt ever made; `schedule_attempts` restarts when a delivery is re-queued by hand.
  attempts integer not null default 0,
  schedule_attempts integer not null default 0,
  next_attempt_at timestamptz,
  -- Set while a worker holds the row; cleared when it records the outcome.
  lease text,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null,
  check (class = 'interactive' or event_id is not null)
);
create index deliveries_due_idx on deliveries (next_attempt_at) where status = 'pending';
create index deliveries_app_idx on deliveries (app_id, created_at desc, id desc);
create index deliveries_install_idx on deliveries (install_id, status);
create index deliveries_delivered_idx on deliveries (delivered_at) where status = 'delivered';
create index deliveries_settled_idx on deliveries (created_at) where status in ('dead', 'cancelled', 'failed');

create table delivery_attempts (
  delivery_id text not null references deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  -- null when the worker stopped before the outcome was known.
  duration_ms integer,
  status integer,
  error text,
  primary key (delivery_id, attempt)
);

-- Per install: since when lifecycle attempts fail without a success in between (three days of
-- that pause deliveries), and why deliveries are paused (`installs.deliveries_paused_at` says when).
create table install_delivery_health (
  install_id text primary key references installs (id) on delete cascade,
  failing_since timestamptz,
  last_success_at timestamptz,
  paused_reason text check (paused_reason in ('gone', 'failing')),
  paused_at timestamptz
);

-- One delivery per outbox event whose install's running version subscribes to it. Paused
-- installs get their new deliveries held. The notification wakes the workers when the transaction
-- commits (identical notifications of one transaction fold into one); the channel carries the
-- schema so databases shared by several schemas (tests) do not wake each other.
create function deliveries_from_outbox() returns trigger language plpgsql as $$
declare
  target record;
begin
  select i.app_id, i.deliveries_paused_at, v.manifest -> 'events' as events into target
    from installs i join app_versions v on v.app_id = i.app_id and v.version = i.version
   where i.id = new.install_id;
  if found and jsonb_typeof(target.events) = 'array' and jsonb_exists(target.events, new.type) then
    insert into deliveries (id, app_id, install_id, class, type, event_id, status, next_attempt_at, created_at)
    values (new.id, target.app_id, new.install_id, 'lifecycle', new.type, new.id,
            case when target.deliveries_paused_at is null then 'pending' else 'paused' end, new.created_at, new.created_at);
    perform pg_notify(left('platform_outbox_' || current_schema(), 63), '');
  end if;
  return null;
end
$$;

create trigger outbox_events_deliveries after insert on outbox_events
  for each row execute function deliveries_from_outbox();
