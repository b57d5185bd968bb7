/**
 * @module messaging/memories/v0-routes
 * `POST /v0/memories` with the shapes of `API_ROUTES.memory`: `{ text 1–4,000, title? ≤ 200 }` →
 * `201 { id, createdAt }`.
 */
import { API_ROUTES, LIMITS } from '@platform/sdk';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { MemoriesService } from './service.ts';

const R = API_ROUTES.memory;
const E = LIMITS.endpoints;
// Lengths count graphemes; the byte cap allows the client API's bytes per grapheme on both texts,
// plus room for the JSON around them.
const MAX_BODY_BYTES = (E.memoryTextMax + E.memoryTitleMax) * CLIENT_LIMITS.bytesPerGrapheme + 1024;

export function registerMemoryV0Routes(api: V0Api, memories: MemoriesService): void {
  api.route({
    operationId: 'saveMemory', method: 'post', path: '/memories', tag: 'memories', auth: 'install', status: R.status,
    summary: 'Save a workspace memory credited to the app',
    description: `Scope \`${R.scope}\`. \`text\` 1 to ${E.memoryTextMax} characters, \`title\` at most ${E.memoryTitleMax}. `
      + 'Members of the workspace see it (a development install\'s memories: its developer only). '
      + `At most ${LIMITS.rateLimits.memoriesPerMinutePerInstall} a minute per install.`,
    body: R.body, maxBytes: MAX_BODY_BYTES, response: R.response,
    errors: [
      { status: 403, description: 'PlatformAppScopeMissingError (`memories:write`), PlatformAppInstallRevokedError' },
      { status: 429, description: 'PlatformApiRateLimitExceededError: over 60 a minute for the install (see `retry-after`)' },
    ],
  }, async ({ auth, body }) => memories.save(auth, body));
}
