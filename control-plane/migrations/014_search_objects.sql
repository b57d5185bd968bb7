-- Search objects (docs/decisions/search.md): what an install adds to the workspace's search with
-- `PUT /v0/search/objects`. They belong to the install: one row per (install, kind, externalId),
-- never seen or touched by another install, and gone with it.
--
-- `circle_ids` null means visible workspace-wide; otherwise members who can see one of those
-- circles see the object (the list as the app sent it; a circle deleted later simply matches no one).
-- `search` is the text index members query: title weighs most, then subtitle, then body ('simple'
-- configuration: no stemming or stop words, so any language matches as typed).
create table search_objects (
  install_id text not null references installs (id) on delete cascade,
  kind text not null,
  external_id text not null,
  workspace_id text not null references workspaces (id) on delete cascade,
  app_id text not null references apps (id) on delete cascade,
  title text not null,
  url text not null,
  subtitle text,
  body text,
  updated_at timestamptz not null,
  circle_ids text[],
  written_at timestamptz not null,
  search tsvector generated always as (
    setweight(to_tsvector('simple', title), 'A')
    || setweight(to_tsvector('simple', coalesce(subtitle, '')), 'B')
    || setweight(to_tsvector('simple', coalesce(body, '')), 'C')
  ) stored,
  primary key (install_id, kind, external_id)
);
create index search_objects_text_idx on search_objects using gin (search);
-- Listing without words: newest first, ties in key order (the member search's order).
create index search_objects_workspace_idx on search_objects (workspace_id, updated_at desc, install_id, kind, external_id);
