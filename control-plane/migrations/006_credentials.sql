-- Credentials: the ES256 keys that sign every token (install, interaction, deploy, agent builder,
-- MCP per-call), and the CI identities an app trusts for the deploy-token exchange.
--
-- A signing key signs from activates_at until a newer key activates; it then verifies (and stays in
-- the JWKS) until verify_until, when every token it signed has expired. The private JWK is sealed
-- with the master key (crypto/secrets.ts), bound to the key id.
create table signing_keys (
  kid text primary key,
  public_jwk jsonb not null,
  private_jwk_enc text not null,
  created_at timestamptz not null,
  activates_at timestamptz not null,
  verify_until timestamptz
);
create index signing_keys_activation_idx on signing_keys (activates_at desc);

-- Trusted CI identities per app: an OIDC identity token whose issuer and audience match exactly and
-- whose subject matches the pattern (`*` spans any characters) exchanges for a deploy token.
create table ci_identities (
  id text primary key,
  app_id text not null references apps (id) on delete cascade,
  issuer text not null,
  audience text not null,
  subject_pattern text not null,
  preview_only boolean not null,
  created_by_member_id text references members (id) on delete set null,
  created_at timestamptz not null
);
create index ci_identities_app_idx on ci_identities (app_id, created_at, id);
