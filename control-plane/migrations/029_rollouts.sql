-- Gradual rollouts (docs/decisions/rollouts.md): a production version moved to a hash-chosen share
-- of the installs that may take it without a new consent, compared with the version the others
-- run, advanced, promoted (every install moves) or aborted (every moved install goes back).
-- At most one rollout of an app runs at a time (the partial unique index); a finished one is kept,
-- so the version it aborted is not served to new installs and its reason stays readable.
create table rollouts (
  id text primary key,
  app_id text not null references apps (id) on delete cascade,
  version integer not null,
  percent integer not null check (percent between 1 and 100),
  status text not null check (status in ('running', 'promoted', 'aborted')),
  -- Why it was aborted, and by whom: 'author' (the API) or 'platform' (the evaluator's verdict).
  reason text,
  aborted_by text check (aborted_by in ('author', 'platform')),
  -- The figures of the verdict that aborted it (the evaluator's counts and bounds).
  verdict jsonb,
  started_at timestamptz not null,
  updated_at timestamptz not null,
  ended_at timestamptz,
  foreign key (app_id, version) references app_versions (app_id, version) on delete cascade
);
create unique index rollouts_one_running on rollouts (app_id) where status = 'running';
create index rollouts_app on rollouts (app_id, started_at desc);

-- Each install the rollout moved, with the version (and scopes) it ran before, so an abort moves
-- every one of them back; `reverted_at` is set when it did.
create table rollout_installs (
  rollout_id text not null references rollouts (id) on delete cascade,
  install_id text not null references installs (id) on delete cascade,
  previous_version integer not null,
  previous_scopes jsonb not null,
  moved_at timestamptz not null,
  reverted_at timestamptz,
  primary key (rollout_id, install_id)
);
create index rollout_installs_install on rollout_installs (install_id);
