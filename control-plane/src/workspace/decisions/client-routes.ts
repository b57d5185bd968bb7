/**
 * @module workspace/decisions/client-routes
 * `/circles/{circleId}/decisions` and `/decisions/{decisionId}`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { PageQuery } from '../../core/http/common.ts';
import { DecisionPage, DecisionResponse, PublishDecisionBody, UpdateDecisionBody } from './schemas.ts';
import type { DecisionsService } from './service.ts';

const readOnly = { status: 403, description: 'PlatformApiForbiddenError: the circle is read-only' };

export function registerDecisionClientRoutes(api: ClientApi, decisions: DecisionsService): void {
  api.route({
    operationId: 'publishDecision', method: 'post', path: '/circles/{circleId}/decisions', tag: 'decisions', auth: 'member',
    summary: 'Publish a decision in a circle (apps subscribed to decision.published hear of it)',
    body: PublishDecisionBody, maxBytes: CLIENT_LIMITS.messageBodyBytes, status: 201, response: DecisionResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ decision: await decisions.publish(auth, params.circleId, body) }));

  api.route({
    operationId: 'listDecisions', method: 'get', path: '/circles/{circleId}/decisions', tag: 'decisions', auth: 'member',
    summary: 'Decisions of a circle, oldest first', query: PageQuery, status: 200, response: DecisionPage,
  }, async ({ auth, params, query }) => decisions.list(auth, params.circleId, query));

  api.route({
    operationId: 'getDecision', method: 'get', path: '/decisions/{decisionId}', tag: 'decisions', auth: 'member',
    summary: 'One decision', status: 200, response: DecisionResponse,
  }, async ({ auth, params }) => ({ decision: await decisions.get(auth, params.decisionId) }));

  api.route({
    operationId: 'updateDecision', method: 'patch', path: '/decisions/{decisionId}', tag: 'decisions', auth: 'member',
    summary: 'Change the title or text of a decision (decision.updated, version + 1)', body: UpdateDecisionBody, maxBytes: CLIENT_LIMITS.messageBodyBytes, status: 200, response: DecisionResponse, errors: [readOnly],
  }, async ({ auth, params, body }) => ({ decision: await decisions.update(auth, params.decisionId, body) }));
}
