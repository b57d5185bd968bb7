/**
 * @module workspace/api-keys/auth
 * The member API key credential, as an auth scheme of the API builder.
 */
import type { AuthScheme } from '../../core/http/api.ts';
import { bearerToken, tokenInvalid } from '../../core/http/bearer.ts';
import type { Actor } from '../../core/auth/actor.ts';
import type { ApiKeysService } from './service.ts';

export function memberAuthScheme(keys: ApiKeysService): AuthScheme<Actor> {
  return {
    scheme: { type: 'http', scheme: 'bearer', description: 'Member API key (`platkey_…`), shown once when created' },
    async authenticate(c) {
      const actor = await keys.authenticate(bearerToken(c));
      if (actor === null) throw tokenInvalid();
      return actor;
    },
  };
}
