/**
 * @module core/rate-limit/caller-key
 * "Per caller" for rate limits: the identity behind a credential, not the credential itself, so
 * minting new tokens does not buy more requests. A deploy token counts for its app (every CI run
 * of the app shares one budget), an agent builder token for its member.
 */
import type { Caller } from '../auth/caller.ts';

/**
 * @example
 * await rateLimit(kv, { key: `check-trees:${callerKey(auth)}`, limit: 60, windowMs: 60_000 });
 */
export function callerKey(caller: Caller): string {
  switch (caller.kind) {
    case 'member':
      return `member:${caller.memberId}`;
    case 'agent':
      return `agent:${caller.memberId}`;
    case 'install':
    case 'interaction':
      return `install:${caller.installId}`;
    case 'deploy':
      return `deploy:${caller.appId}`;
    case 'client':
      return `client:${caller.appId}`;
  }
}
