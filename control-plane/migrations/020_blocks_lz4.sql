-- The blocks table's JSON (docs/decisions/clicks.md): every click writes a new tree and state and
-- reads them back, and a board's tree (≈ 3 KB of JSON) is compressed on every write. lz4 does that
-- in about half of pglz's time (≈ 25 µs less per write, measured on this Postgres); values already
-- stored keep their compression until they are written again. A server built without lz4 (PGlite,
-- some packages) refuses the method: it keeps pglz.
do $$
begin
  alter table blocks alter column tree set compression lz4, alter column actions set compression lz4,
    alter column state set compression lz4, alter column props set compression lz4;
exception when feature_not_supported then
  null;
end
$$;
