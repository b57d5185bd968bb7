/**
 * @module core/http/operator-auth
 * Who may create a workspace. In the embedded default (no DATABASE_URL, no OPERATOR_TOKEN) anyone
 * may: it is one person's machine. Everywhere else the caller presents the operator token.
 */
import type { Config } from '../config/config.ts';
import { secretsEqual } from '../crypto/api-keys.ts';
import type { AuthScheme } from './api.ts';
import { bearerToken, tokenInvalid } from './bearer.ts';

export interface OperatorAccess {
  via: 'open' | 'operator-token';
}

export function operatorAuthScheme(config: Pick<Config, 'workspaceCreation' | 'operatorToken'>): AuthScheme<OperatorAccess> {
  return {
    scheme: { type: 'http', scheme: 'bearer', description: 'OPERATOR_TOKEN from the server configuration (not needed in the embedded default)' },
    optional: config.workspaceCreation === 'open',
    async authenticate(c) {
      if (config.workspaceCreation === 'open') return { via: 'open' };
      const token = bearerToken(c);
      // No token configured (production with a shared database): nobody creates workspaces over HTTP.
      if (config.operatorToken === null || !secretsEqual(token, config.operatorToken)) throw tokenInvalid();
      return { via: 'operator-token' };
    },
  };
}
