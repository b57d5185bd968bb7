-- Assets (docs/decisions/assets.md): images copied from trees and uploaded by tooling (app icons),
-- stored once by their content. `id` is `ast_` + the base32 of the bytes' sha256, so the same bytes
-- from any URL or upload are one asset. The bytes live in `content`, or with BUNDLE_STORE=s3 in the
-- object store under `{ASSET_S3_PREFIX}{sha256}` (`content` null then); this table is the index
-- either way. Type and size were read from the bytes when stored and are served from here.
create table assets (
  id text primary key check (id ~ '^ast_[a-z2-7]{52}$'),
  sha256 text not null unique check (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text not null check (content_type in ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
  size_bytes integer not null check (size_bytes > 0),
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  content bytea,
  created_at timestamptz not null
);

-- Copies by source URL: a URL copied within the reuse window is not fetched again.
create table asset_sources (
  url text primary key,
  asset_id text not null references assets (id),
  copied_at timestamptz not null
);

-- The app's icon as members see it: the `icon` of its latest production manifest (of the latest
-- version, for a development app), kept here so every view that names the app can show it.
alter table apps add column icon text;
