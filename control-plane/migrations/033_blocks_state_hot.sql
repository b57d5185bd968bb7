-- A click's write to its block can be a HOT update (docs/decisions/clicks.md, issue 24 item 3).
-- Every click replaces the block's state; the GIN index on state made each of those writes a new
-- index entry in every index of the table (the primary key, both install indexes and the GIN's
-- pending list), where an update touching no indexed column stays on its page and writes none.
-- Measured on this Postgres 15 with a board's row: 107–127 → 87–97 µs of Postgres CPU per update,
-- 99.7 % of them HOT without the index, none with it. What it served: the bulk update's and the
-- app API's `state @>` filter, which always come with the install (and the type), so they now
-- read that install's blocks through `blocks_install_idx` / `blocks_install_type_idx` and filter.
drop index if exists blocks_state_idx;
