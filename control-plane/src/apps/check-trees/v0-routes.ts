/**
 * @module apps/check-trees/v0-routes
 * `POST /v0/apps/check/trees` `{ tree, actions? }` → `200` with `validateTree`'s answer: `{ valid:
 * true }`, or the first problem with the spec's message and its `path` in the tree (the tooling
 * location). Any tooling credential or an install token; 60 requests a minute per caller. Images are
 * copied as an insert would copy them, so an image that fails its checks is the answer's problem.
 */
import { CheckTreesRequestSchema, CheckTreesResponseSchema, LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { CheckTreesService } from './service.ts';

// A tree is at most 64 KB and an action table at most 64 × 2 KB of args: a body four times their
// sum still gets a verdict (a tree a little over the size limit hears the size message), anything
// bigger is refused unread.
const MAX_BODY_BYTES = 1024 * 1024;
// The tree is checked by validateTree's iterative walk (the request schema does not recurse into
// it), so a hostile 100,000-deep tree gets the spec's depth message instead of a generic 400.
const MAX_DEPTH = Number.MAX_SAFE_INTEGER;

export function registerCheckTreesV0Routes(api: V0Api, checker: CheckTreesService): void {
  api.route({
    operationId: 'checkTree', method: 'post', path: '/apps/check/trees', tag: 'tooling', auth: 'toolingOrInstall', reads: true,
    summary: 'Validate a block tree (and its action table) with the service\'s validator',
    description: 'Answers `{ valid: true }` or the first problem: `{ valid: false, message, path }`, where `path` locates the '
      + 'node in `tree`. Image URLs are copied as an insert copies them (type JPEG, PNG, WebP or GIF read from the bytes; 5 MB; '
      + '8,192 pixels per side; 4 s download): an image that fails answers its limit\'s message at its `src`. '
      + `At most ${LIMITS.rateLimits.checkTreesPerMinutePerCaller} requests a minute per caller.`,
    body: CheckTreesRequestSchema, maxBytes: MAX_BODY_BYTES, maxDepth: MAX_DEPTH, status: 200, response: CheckTreesResponseSchema,
    errors: [{ status: 429, description: 'PlatformApiRateLimitExceededError: over 60 requests a minute (see `retry-after`)' }],
  }, async ({ auth, body }) => checker.check(auth, body));
}
