/**
 * @module apps/rollouts/v0-routes
 * Tooling endpoints of gradual rollouts (ours, docs/decisions/rollouts.md): `GET /v0/apps/{app_id}/rollout`
 * and `POST …/rollout/advance|promote|abort`. A rollout starts with the publish
 * (`POST /v0/apps/{app_id}/versions?target=production&rollout=10`, or `PUT …/manifest?rollout=10`).
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { AbortRequestSchema, AdvanceRequestSchema, RolloutSchema } from './schemas.ts';
import type { RolloutsService } from './service.ts';

const notFound = { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not deploy it' };
const forbidden = { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only deploy token or an agent builder token' };
const noRollout = { status: 409, description: 'PlatformApiConflictError: no rollout of the app is running' };
const EXTENSION = 'Ours (an extension of the app API, docs/decisions/rollouts.md).';

export function registerRolloutV0Routes(api: V0Api, rollouts: RolloutsService): void {
  api.route({
    operationId: 'getRollout', method: 'get', path: '/apps/{app_id}/rollout', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s running rollout, else its newest finished one, with the figures compared (ours)',
    description: `${EXTENSION} The installs it moved, the installs by version, the outcomes and failures on either side since it started, and the verdict's bounds.`,
    status: 200, response: RolloutSchema,
    errors: [notFound, { status: 404, description: 'PlatformApiNotFoundError: the app never had a rollout' }],
  }, async ({ auth, params }) => rollouts.status(auth, params.app_id));

  api.route({
    operationId: 'advanceRollout', method: 'post', path: '/apps/{app_id}/rollout/advance', tag: 'tooling', auth: 'tooling',
    summary: 'Move more installs to the version rolling out (ours)',
    description: `${EXTENSION} The installs already moved stay; the next ones in the rollout's hash order move until \`percent\` of those that may take it run it.`,
    body: AdvanceRequestSchema, status: 200, response: RolloutSchema,
    errors: [notFound, forbidden, noRollout, { status: 400, description: 'PlatformApiInvalidRequestError: `percent` is not above the current share' }],
  }, async ({ auth, params, body }) => rollouts.advance(auth, params.app_id, body.percent));

  api.route({
    operationId: 'promoteRollout', method: 'post', path: '/apps/{app_id}/rollout/promote', tag: 'tooling', auth: 'tooling',
    summary: 'Move every install to the version rolling out, as a plain publish would (ours)',
    description: `${EXTENSION} Installs whose access the version widens keep theirs until an admin approves (\`app.reconsentRequired\`).`,
    status: 200, response: RolloutSchema, errors: [notFound, forbidden, noRollout],
  }, async ({ auth, params }) => rollouts.promote(auth, params.app_id));

  api.route({
    operationId: 'abortRollout', method: 'post', path: '/apps/{app_id}/rollout/abort', tag: 'tooling', auth: 'tooling',
    summary: 'Move every install the rollout moved back to the version it ran before (ours)',
    description: `${EXTENSION} The aborted version is no longer served to new installs or app-level routes.`,
    body: AbortRequestSchema, status: 200, response: RolloutSchema, errors: [notFound, forbidden, noRollout],
  }, async ({ auth, params, body }) => rollouts.abort(auth, params.app_id, body.reason));
}
