/**
 * @module apps/apps/ids
 * Identifiers of the apps features, in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in
 * lowercase base32): apps, their client ids and installs.
 */
import { randomBytes } from 'node:crypto';
import { base32, idMaker } from '../../core/ids/ids.ts';

export const newAppId = idMaker('app');
export const newClientId = idMaker('client');
export const newInstallId = idMaker('install');

/**
 * A short random suffix for development app slugs (`polls-k3x9`): 4 base32 characters, 20 bits.
 * @example devSlugSuffix() // 'k3x9'
 */
export function devSlugSuffix(): string {
  return base32(randomBytes(3)).slice(0, 4);
}
