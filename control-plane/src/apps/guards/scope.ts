/**
 * @module apps/guards/scope
 * Scope checks for `/v0` routes called with an install token. The scopes are the ones the install's
 * admin approved, read from the install row when the token was checked (apps/credentials/resolve.ts).
 */
import { PlatformError } from '@platform/sdk';
import type { InstallCaller } from '../../core/auth/caller.ts';

/**
 * Throws `403 PlatformAppScopeMissingError` (body field `scope`) unless the install was granted `scope`.
 *
 * @example
 * requireScope(auth, 'replies:write');
 */
export function requireScope(caller: Pick<InstallCaller, 'scopes'>, scope: string): void {
  if (caller.scopes.includes(scope)) return;
  throw new PlatformError('PlatformAppScopeMissingError', `This install was not granted the scope ${scope}`, { fields: { scope } });
}
