/**
 * @module apps/credentials/resolve
 * The one place that turns an `authorization` header into a `Caller`:
 *
 * - `Basic base64(client_id:client_secret)` → client credentials (secret compared by sha256);
 * - `Bearer platkey_…` → member API key; `Bearer platapp_|platint_|platdep_|platagt_…` → a token.
 *
 * Install and interaction tokens are checked against the install row on every request, so an
 * uninstall, a suspension or a new approval applies at once to tokens already issued; their scopes
 * are read from the row, never from the token. Their signatures are checked once per process and
 * token (verified-tokens.ts): only what a signature proves is remembered. Failures answer the spec's tags: no header →
 * `PlatformAppTokenMissingError`; anything unverifiable or expired → `PlatformAppTokenInvalidError`;
 * an interaction token whose signature holds but whose time is up →
 * `PlatformAppInteractionExpiredError`; a token of an install that is no longer active →
 * `PlatformAppInstallRevokedError` (403).
 */
import { unitKeyOf } from '../../core/unit-of-work/unit-of-work.ts';
import type { Context } from 'hono';
import { PlatformError } from '@platform/sdk';
import type { ApiKeysService } from '../../workspace/api-keys/service.ts';
import type { Caller, InstallCaller, InteractionCaller } from '../../core/auth/caller.ts';
import { API_KEY_PREFIX } from '../../core/crypto/api-keys.ts';
import type { Db } from '../../core/db/db.ts';
import { tokenInvalid, tokenMissing } from '../../core/http/bearer.ts';
import { TokenRejected, type TokenService } from '../tokens/service.ts';
import type { InstallClaims } from '../tokens/claims.ts';
import type { CallerResolver } from '../../core/http/v0-auth.ts';
import { clientSecretMatches } from './client-secret.ts';
import { createVerifiedTokens } from './verified-tokens.ts';
import type { Clock } from '../../core/clock/clock.ts';
import { findAppByClientId, findInstallForAuth, memberInWorkspace } from './store.ts';

// Generous caps: a header beyond them is not a credential we issued.
const MAX_HEADER_CHARS = 8_192;
const MAX_CLIENT_ID_CHARS = 200;

export function installRevoked(): PlatformError {
  return new PlatformError('PlatformAppInstallRevokedError', 'The install was uninstalled or suspended');
}

const invalid = (message = 'The credential is invalid or expired') => new PlatformError('PlatformAppTokenInvalidError', message);

export interface CallerResolverDeps {
  db: Db;
  tokens: TokenService;
  apiKeys: ApiKeysService;
  /** For the expiry of tokens verified before. */
  clock: Clock;
}

/**
 * @example
 * const resolver = createCallerResolver({ db, tokens, apiKeys, clock });
 * const caller = await resolver.resolveValue('Bearer platapp_eyJ…'); // { kind: 'install', … }
 */
/** The resolver of the `/v0` schemes, which also takes a header value alone (the relay's upgrade request). */
export type CallerResolverService = CallerResolver & { resolveValue(header: string | undefined): Promise<Caller> };

export function createCallerResolver(deps: CallerResolverDeps): CallerResolverService {
  const verifiedTokens = createVerifiedTokens({ tokens: deps.tokens, clock: deps.clock });
  const activeInstall = async (claims: InstallClaims) => {
    const row = await findInstallForAuth(deps.db, claims.installId);
    // A token naming an install that is gone, or another app or workspace than its row, is not ours.
    if (row === undefined || row.app_id !== claims.appId || row.workspace_id !== claims.workspaceId) throw invalid();
    if (row.status !== 'active') throw installRevoked();
    return row;
  };

  const basic = async (encoded: string): Promise<Caller> => {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    if (sep <= 0 || sep > MAX_CLIENT_ID_CHARS) throw invalid('The client credentials are invalid');
    const app = await findAppByClientId(deps.db, decoded.slice(0, sep));
    if (app === undefined || !clientSecretMatches(decoded.slice(sep + 1), app.client_secret_hash)) throw invalid('The client credentials are invalid');
    return { kind: 'client', appId: app.id };
  };

  const bearer = async (token: string): Promise<Caller> => {
    if (token.startsWith(API_KEY_PREFIX)) {
      const actor = await deps.apiKeys.authenticate(token);
      if (actor === null) throw tokenInvalid();
      return { kind: 'member', workspaceId: actor.workspaceId, memberId: actor.memberId, role: actor.role };
    }
    let verified;
    try {
      verified = await verifiedTokens.verify(token);
    } catch (err) {
      if (!(err instanceof TokenRejected)) throw err;
      if (err.reason === 'expired' && err.kind === 'interaction') {
        throw new PlatformError('PlatformAppInteractionExpiredError', 'The interaction token expired; use an install token');
      }
      throw invalid(err.reason === 'expired' ? 'The token expired' : undefined);
    }
    switch (verified.kind) {
      case 'install': {
        const row = await activeInstall(verified.claims);
        const caller: InstallCaller = {
          kind: 'install', workspaceId: row.workspace_id, appId: row.app_id, installId: row.id, installKind: row.kind, scopes: [...row.approved_scopes],
          ...(verified.claims.readOnly === true ? { readOnly: true } : {}),
        };
        return caller;
      }
      case 'interaction': {
        const row = await activeInstall(verified.claims);
        const caller: InteractionCaller = {
          kind: 'interaction', workspaceId: row.workspace_id, appId: row.app_id, installId: row.id, installKind: row.kind,
          blockId: verified.claims.blockId, invocationId: verified.claims.invocationId, unitKey: unitKeyOf(token),
          ...(verified.claims.readOnly === true ? { readOnly: true } : {}),
        };
        return caller;
      }
      case 'deploy':
        return { kind: 'deploy', appId: verified.claims.appId, previewOnly: verified.claims.previewOnly };
      case 'agent':
        // A member removed since the turn began holds nothing.
        if (!(await memberInWorkspace(deps.db, verified.claims.memberId, verified.claims.workspaceId))) throw invalid();
        return { kind: 'agent', workspaceId: verified.claims.workspaceId, memberId: verified.claims.memberId };
    }
  };

  const resolveValue = async (header: string | undefined): Promise<Caller> => {
    if (header === undefined || header.trim() === '') throw tokenMissing();
    if (header.length > MAX_HEADER_CHARS) throw invalid();
    const match = /^(Bearer|Basic)[ ]+([^\s]+)\s*$/i.exec(header);
    if (!match) throw invalid();
    return match[1]!.toLowerCase() === 'basic' ? basic(match[2]!) : bearer(match[2]!);
  };

  return {
    resolveValue,
    resolve: (c: Context) => resolveValue(c.req.header('authorization')),
  };
}
