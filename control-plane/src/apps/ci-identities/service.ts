/**
 * @module apps/ci-identities/service
 * Trusted CI identities of an app (managed by its owner or a workspace owner or admin) and the CI
 * token exchange: an OIDC identity token whose issuer and audience equal an identity's and whose
 * subject matches its pattern becomes a deploy token for the app.
 *
 * Every refusal of the exchange is the same `401 PlatformAppTokenInvalidError` (unknown issuer,
 * bad signature, wrong audience or subject, expired), except a preview-only identity asking for
 * production: `403 PlatformAppDeployTargetForbiddenError`.
 */
import { decodeJwt } from 'jose';
import { PlatformError, invalidRequest } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { assertCanManageApp } from '../guards/deploy.ts';
import { newId } from '../../core/ids/ids.ts';
import type { Actor } from '../../core/auth/actor.ts';
import type { TokenService } from '../tokens/service.ts';
import { isAcceptableIssuerUrl, OidcRejected, type OidcVerifier } from './oidc.ts';
import { CI_IDENTITY_LIMITS, type CiIdentityInfo } from './schemas.ts';
import {
  ciIdentitiesForIssuer, countCiIdentities, deleteCiIdentity, findGuardedApp, insertCiIdentity, listCiIdentities, lockAppForIdentities,
  type CiIdentityRow,
} from './store.ts';
import { subjectMatches } from './subject-pattern.ts';

const view = (row: CiIdentityRow): CiIdentityInfo => ({
  id: row.id,
  appId: row.app_id,
  issuer: row.issuer,
  audience: row.audience,
  subjectPattern: row.subject_pattern,
  previewOnly: row.preview_only,
  createdAt: row.created_at.toISOString(),
});

const refused = (why: string) => new PlatformError('PlatformAppTokenInvalidError', `The identity token was refused: ${why}`, { path: ['identityToken'] });

export interface CiIdentitiesDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  oidc: OidcVerifier;
  allowHttpIssuers: boolean;
}

export type CiIdentitiesService = ReturnType<typeof createCiIdentitiesService>;

export function createCiIdentitiesService(deps: CiIdentitiesDeps) {
  const managedApp = async (actor: Actor, appId: string) =>
    assertCanManageApp({ kind: 'member', workspaceId: actor.workspaceId, memberId: actor.memberId, role: actor.role }, await findGuardedApp(deps.db, appId));

  return {
    async list(actor: Actor, appId: string): Promise<CiIdentityInfo[]> {
      await managedApp(actor, appId);
      return (await listCiIdentities(deps.db, appId)).map(view);
    },

    async create(actor: Actor, appId: string, input: { issuer: string; audience: string; subjectPattern: string; previewOnly: boolean }): Promise<CiIdentityInfo> {
      await managedApp(actor, appId);
      if (!isAcceptableIssuerUrl(input.issuer, deps.allowHttpIssuers)) {
        throw invalidRequest([{ path: ['issuer'], message: 'The issuer must be an https:// URL without query or fragment', code: 'invalid_issuer' }]);
      }
      const row: CiIdentityRow = {
        id: newId('ciIdentity'), app_id: appId, issuer: input.issuer, audience: input.audience, subject_pattern: input.subjectPattern,
        preview_only: input.previewOnly, created_by_member_id: actor.memberId, created_at: new Date(deps.clock.now()),
      };
      await deps.db.transaction(async (tx) => {
        await lockAppForIdentities(tx, appId);
        if ((await countCiIdentities(tx, appId)) >= CI_IDENTITY_LIMITS.perApp) {
          throw new PlatformError('PlatformApiConflictError', `An app trusts at most ${CI_IDENTITY_LIMITS.perApp} CI identities`);
        }
        await insertCiIdentity(tx, row);
      });
      return view(row);
    },

    async remove(actor: Actor, appId: string, identityId: string): Promise<void> {
      await managedApp(actor, appId);
      if (!(await deleteCiIdentity(deps.db, appId, identityId))) {
        throw new PlatformError('PlatformApiNotFoundError', 'This app has no CI identity with that id', { path: ['identityId'] });
      }
    },

    /** The CI token exchange. */
    async exchange(appId: string, identityToken: string, target: 'preview' | 'production') {
      let issuer: unknown;
      try {
        issuer = decodeJwt(identityToken).iss;
      } catch {
        throw refused('not a JWT');
      }
      if (typeof issuer !== 'string') throw refused('no issuer');
      // Only issuers this app trusts are ever contacted.
      const candidates = await ciIdentitiesForIssuer(deps.db, appId, issuer);
      if (candidates.length === 0) throw refused('no trusted CI identity of this app has that issuer');
      let claims;
      try {
        claims = await deps.oidc.verify(identityToken, issuer, [...new Set(candidates.map((c) => c.audience))]);
      } catch (err) {
        if (err instanceof OidcRejected) throw refused(err.message);
        throw err;
      }
      const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      const matching = candidates.filter((c) => audiences.includes(c.audience) && subjectMatches(c.subject_pattern, claims.sub!));
      if (matching.length === 0) throw refused('no trusted CI identity of this app matches its audience and subject');
      const chosen = target === 'production' ? matching.find((c) => !c.preview_only) : matching[0];
      if (chosen === undefined) {
        throw new PlatformError('PlatformAppDeployTargetForbiddenError', 'This CI identity may deploy previews only', { path: ['target'] });
      }
      const previewOnly = target === 'preview';
      const minted = await deps.tokens.mint('deploy', { appId, previewOnly, identityId: chosen.id });
      return { token: minted.token, expiresAt: new Date(minted.expiresAt).toISOString(), appId, previewOnly };
    },
  };
}
