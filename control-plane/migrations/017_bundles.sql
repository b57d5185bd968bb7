-- Hosted bundles in the database (docs/decisions/fleet.md): control planes share no disk, so the
-- bytes of an uploaded bundle live here (`content`) or, with BUNDLE_STORE=s3, in an S3-compatible
-- object store under the same hash (`content` is null then). Either way this table is the index:
-- which bundles exist, how large they are, and when each was last stored (`stored_at`, refreshed by
-- every upload of the same bytes), which the collector's grace period counts from.
create table bundles (
  sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes integer not null check (size_bytes > 0),
  content bytea,
  stored_at timestamptz not null
);

-- The collector looks for old rows that no version refers to.
create index bundles_stored_at on bundles (stored_at);
create index app_versions_bundle on app_versions (bundle_sha256) where bundle_sha256 is not null;
