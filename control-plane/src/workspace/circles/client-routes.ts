/**
 * @module workspace/circles/client-routes
 * `/circles`: circles, their members, connections and app invitations.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { MemberPage } from '../members/schemas.ts';
import { AppInvitationList, AppInvitationResponse, CirclePage, CircleResponse, ConnectCircleBody, CreateCircleBody } from './schemas.ts';
import type { CirclesService } from './service.ts';

const forbidden = { status: 403, description: 'PlatformApiForbiddenError: the caller\'s role does not allow it' };
const conflict = { status: 409, description: 'PlatformApiConflictError: the circle is not in a state that allows it' };

export function registerCircleClientRoutes(api: ClientApi, circles: CirclesService): void {
  api.route({
    operationId: 'createCircle', method: 'post', path: '/circles', tag: 'circles', auth: 'member',
    summary: 'Create a circle (the creator becomes its first member)', body: CreateCircleBody, status: 201, response: CircleResponse,
  }, async ({ auth, body }) => ({ circle: await circles.create(auth, body) }));

  api.route({
    operationId: 'listCircles', method: 'get', path: '/circles', tag: 'circles', auth: 'member',
    summary: 'Circles you can see: public ones and private ones you belong to', query: PageQuery, status: 200, response: CirclePage,
  }, async ({ auth, query }) => circles.list(auth, query));

  api.route({
    operationId: 'getCircle', method: 'get', path: '/circles/{circleId}', tag: 'circles', auth: 'member',
    summary: 'One circle', status: 200, response: CircleResponse,
  }, async ({ auth, params }) => ({ circle: await circles.get(auth, params.circleId) }));

  api.route({
    operationId: 'listCircleMembers', method: 'get', path: '/circles/{circleId}/members', tag: 'circles', auth: 'member',
    summary: 'Members of a circle', query: PageQuery, status: 200, response: MemberPage,
  }, async ({ auth, params, query }) => circles.listMembers(auth, params.circleId, query));

  api.route({
    operationId: 'addCircleMember', method: 'put', path: '/circles/{circleId}/members/{memberId}', tag: 'circles', auth: 'member',
    summary: 'Add a member to a circle (join a public circle with your own id)', status: 204, errors: [forbidden],
  }, async ({ auth, params }) => circles.addMember(auth, params.circleId, params.memberId));

  api.route({
    operationId: 'removeCircleMember', method: 'delete', path: '/circles/{circleId}/members/{memberId}', tag: 'circles', auth: 'member',
    summary: 'Remove a member from a circle (leave with your own id)', status: 204, errors: [forbidden],
  }, async ({ auth, params }) => circles.removeMember(auth, params.circleId, params.memberId));

  api.route({
    operationId: 'connectCircle', method: 'post', path: '/circles/{circleId}/connection', tag: 'circles', auth: 'member',
    summary: 'Share the circle with another workspace (owners and admins)', body: ConnectCircleBody, status: 200, response: CircleResponse,
    errors: [forbidden, conflict],
  }, async ({ auth, params, body }) => ({ circle: await circles.connect(auth, params.circleId, body.workspaceId) }));

  api.route({
    operationId: 'endCircleConnection', method: 'delete', path: '/circles/{circleId}/connection', tag: 'circles', auth: 'member',
    summary: 'End the connection: the circle becomes read-only (owners and admins)', status: 200, response: CircleResponse,
    errors: [forbidden, conflict],
  }, async ({ auth, params }) => ({ circle: await circles.endConnection(auth, params.circleId) }));

  api.route({
    operationId: 'listAppInvitations', method: 'get', path: '/circles/{circleId}/app-invitations', tag: 'circles', auth: 'member',
    summary: 'Apps invited to a private circle', status: 200, response: AppInvitationList,
  }, async ({ auth, params }) => ({ items: await circles.listInvitations(auth, params.circleId) }));

  api.route({
    operationId: 'inviteApp', method: 'put', path: '/circles/{circleId}/app-invitations/{appId}', tag: 'circles', auth: 'member',
    summary: 'Invite an app into a private circle', status: 200, response: AppInvitationResponse,
    errors: [forbidden, conflict, { status: 404, description: 'PlatformAppNotFoundError: no app with that id (or another workspace\'s private app)' }],
  }, async ({ auth, params }) => ({ invitation: await circles.inviteApp(auth, params.circleId, params.appId) }));

  api.route({
    operationId: 'uninviteApp', method: 'delete', path: '/circles/{circleId}/app-invitations/{appId}', tag: 'circles', auth: 'member',
    summary: 'Withdraw an app\'s invitation', status: 204, errors: [forbidden],
  }, async ({ auth, params }) => circles.uninviteApp(auth, params.circleId, params.appId));
}
