-- Small facts about this installation (for example which demo workspace `npm start` seeded).
create table platform_meta (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null
);
