/**
 * @module apps/apps/ids
 * Identifiers of the apps features, in the form of `core/ids/ids.ts` (kind prefix, 128 random bits in
 * lowercase base32): apps, their client ids, installs and outbox events.
 */
import { randomBytes } from 'node:crypto';
import { base32 } from '../../core/ids/ids.ts';

const make = (prefix: string) => (): string => `${prefix}_${base32(randomBytes(16))}`;

export const newAppId = make('app');
export const newClientId = make('cli');
export const newInstallId = make('ins');
export const newEventId = make('evt');

/**
 * A short random suffix for development app slugs (`polls-k3x9`): 4 base32 characters, 20 bits.
 * @example devSlugSuffix() // 'k3x9'
 */
export function devSlugSuffix(): string {
  return base32(randomBytes(3)).slice(0, 4);
}
