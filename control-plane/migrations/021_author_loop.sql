-- The app author's loop (issue 14; docs/decisions/cli.md).
--
-- Rollback records a new production version that copies an earlier one's manifest and bundle;
-- `rollback_of` names the version it copies (null for an ordinary sync or upload).
alter table app_versions add column rollback_of integer;

-- Replay re-runs a recorded delivery. Lifecycle deliveries keep their payload in `outbox_events`;
-- an interactive delivery's request (`{ data, actor, version }`, the interaction token left out) is
-- kept here, in the same row the Deliveries page lists, and goes with it when the row is removed.
-- Null for deliveries recorded before this migration and for requests over the recording cap.
alter table deliveries add column request jsonb;

-- The app's answer of an attempt (text, at most 16 KB kept; `response_truncated` when cut), shown
-- beside a replay's answer.
alter table delivery_attempts add column response text;
alter table delivery_attempts add column response_truncated boolean not null default false;
