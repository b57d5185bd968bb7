/**
 * @module core/http/v0-auth
 * The credential schemes of the `/v0` API. Every scheme reads the `authorization` header, resolves
 * it into a `Caller` through the one resolver (apps/credentials/resolve.ts) and then checks that the
 * caller's kind is one the route accepts. Resolution comes first so that an expired interaction
 * token or a revoked install answers its own error whichever route it was sent to.
 */
import type { Context } from 'hono';
import { PlatformError } from '@platform/sdk';
import type { AgentCaller, Caller, CallerKind, ClientCredentialsCaller, DeployCaller, InstallCaller, InteractionCaller, MemberCaller } from '../auth/caller.ts';
import type { AuthScheme } from './api.ts';
import type { AppEnv } from './env.ts';

/** Turns the `authorization` header of a request into a `Caller`, or throws the 401/403 of the spec. */
export interface CallerResolver {
  resolve(c: Context<AppEnv>): Promise<Caller>;
}

const KIND_NAMES: Record<CallerKind, string> = {
  member: 'a member API key',
  install: 'an install token',
  interaction: 'an interaction token',
  deploy: 'a deploy token',
  agent: 'an agent builder token',
  client: 'client credentials',
};

/**
 * A replay's tokens (deliveries/replay) read and never write: nothing in the workspace may change
 * while a recorded delivery runs again against another version.
 */
function guardWrite(caller: Caller): void {
  if ((caller.kind === 'install' || caller.kind === 'interaction') && caller.readOnly === true) {
    throw new PlatformError('PlatformReplayReadOnlyError', 'This token belongs to a replay: it reads, and nothing it asks to change is changed');
  }
}

const WRITE_REFUSAL = { status: 403, description: 'PlatformReplayReadOnlyError: a replay\'s read-only token (platform replay) asked to write' };

function scheme<K extends CallerKind>(resolver: CallerResolver, kinds: readonly K[], description: string, basic = false): AuthScheme<Extract<Caller, { kind: K }>> {
  const tokensOfInstalls = (kinds as readonly CallerKind[]).some((k) => k === 'install' || k === 'interaction');
  return {
    ...(tokensOfInstalls ? { guardWrite, writeRefusal: WRITE_REFUSAL } : {}),
    scheme: basic
      ? { type: 'http', scheme: 'basic', description }
      : { type: 'http', scheme: 'bearer', description },
    async authenticate(c) {
      const caller = await resolver.resolve(c);
      if (!(kinds as readonly CallerKind[]).includes(caller.kind)) {
        throw new PlatformError('PlatformAppTokenInvalidError',
          `This endpoint does not accept ${KIND_NAMES[caller.kind]}; use ${kinds.map((k) => KIND_NAMES[k]).join(' or ')}`);
      }
      return caller as Extract<Caller, { kind: K }>;
    },
  };
}

/** Which credential kinds each scheme accepts (the credential matrix of the spec's Authentication table). */
export const V0_SCHEME_KINDS = {
  tooling: ['member', 'deploy', 'agent'],
  install: ['install'],
  installOrInteraction: ['install', 'interaction'],
  toolingOrInstall: ['member', 'deploy', 'agent', 'install'],
  client: ['client'],
  any: ['member', 'install', 'interaction', 'deploy', 'agent', 'client'],
} as const satisfies Record<string, readonly CallerKind[]>;

// A type alias (not an interface) so it fits `Record<string, AuthScheme<unknown>>`.
export type V0Auth = {
  /** Tooling: member API key, deploy token or agent builder token. */
  tooling: AuthScheme<MemberCaller | DeployCaller | AgentCaller>;
  /** An install token of an active install. */
  install: AuthScheme<InstallCaller>;
  installOrInteraction: AuthScheme<InstallCaller | InteractionCaller>;
  /** Tooling credentials or an install token (`check/trees`). */
  toolingOrInstall: AuthScheme<MemberCaller | DeployCaller | AgentCaller | InstallCaller>;
  /** HTTP Basic client credentials. */
  client: AuthScheme<ClientCredentialsCaller>;
  /** Any credential of the Authentication table. */
  any: AuthScheme<Caller>;
};

export function v0AuthSchemes(resolver: CallerResolver): V0Auth {
  return {
    tooling: scheme(resolver, V0_SCHEME_KINDS.tooling,
      'Member API key (`platkey_…`), deploy token (`platdep_…`) or agent builder token (`platagt_…`)'),
    install: scheme(resolver, V0_SCHEME_KINDS.install, 'Install token (`platapp_…`)'),
    installOrInteraction: scheme(resolver, V0_SCHEME_KINDS.installOrInteraction, 'Install token (`platapp_…`) or interaction token (`platint_…`)'),
    toolingOrInstall: scheme(resolver, V0_SCHEME_KINDS.toolingOrInstall, 'Member API key, deploy token, agent builder token or install token'),
    client: scheme(resolver, V0_SCHEME_KINDS.client, 'Client credentials: HTTP Basic `client_id:client_secret`', true),
    any: scheme(resolver, V0_SCHEME_KINDS.any, 'Any credential of the platform'),
  };
}
