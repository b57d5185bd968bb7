/**
 * @module apps/credentials/service
 * Minting install tokens with client credentials: the install must belong to the app whose
 * credentials were presented (else it does not exist for the caller) and be active.
 */
import { PlatformError } from '@platform/sdk';
import type { ClientCredentialsCaller } from '../../core/auth/caller.ts';
import type { Db } from '../../core/db/db.ts';
import type { TokenService } from '../tokens/service.ts';
import { installRevoked } from './resolve.ts';
import { findInstallForAuth } from './store.ts';

export type AccessToken = {
  token: string;
  expiresAt: string;
  scopes: string[];
};

export type CredentialsService = ReturnType<typeof createCredentialsService>;

export function createCredentialsService(deps: { db: Db; tokens: TokenService }) {
  return {
    async mintForInstall(caller: ClientCredentialsCaller, installId: string): Promise<AccessToken> {
      const row = await findInstallForAuth(deps.db, installId);
      if (row === undefined || row.app_id !== caller.appId) {
        throw new PlatformError('PlatformAppInstallNotFoundError', 'No such install for this app', { path: ['install_id'] });
      }
      if (row.status !== 'active') throw installRevoked();
      const minted = await deps.tokens.mint('install', { installId: row.id, appId: row.app_id, workspaceId: row.workspace_id });
      return { token: minted.token, expiresAt: new Date(minted.expiresAt).toISOString(), scopes: [...row.approved_scopes] };
    },
  };
}
