/**
 * @module workspace/members/client-routes
 * `/members` and `/me`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { PageQuery } from '../../core/http/common.ts';
import { CreateMemberBody, CreateMemberResponse, MeResponse, MemberPage, MemberResponse } from './schemas.ts';
import type { MembersService } from './service.ts';

export function registerMemberClientRoutes(api: ClientApi, members: MembersService): void {
  api.route({
    operationId: 'getMe', method: 'get', path: '/me', tag: 'members', auth: 'member',
    summary: 'The member behind the API key, and their workspace', status: 200, response: MeResponse,
  }, async ({ auth }) => members.me(auth));

  api.route({
    operationId: 'createMember', method: 'post', path: '/members', tag: 'members', auth: 'member',
    summary: 'Add a member (owners and admins); answers their first API key once',
    body: CreateMemberBody, status: 201, response: CreateMemberResponse,
    errors: [{ status: 403, description: 'PlatformApiForbiddenError: caller is not an owner or admin, or an admin tried to add an owner' }],
  }, async ({ auth, body }) => members.create(auth, body));

  api.route({
    operationId: 'listMembers', method: 'get', path: '/members', tag: 'members', auth: 'member',
    summary: 'List the members of your workspace', query: PageQuery, status: 200, response: MemberPage,
  }, async ({ auth, query }) => members.list(auth, query));

  api.route({
    operationId: 'getMember', method: 'get', path: '/members/{memberId}', tag: 'members', auth: 'member',
    summary: 'One member of your workspace', status: 200, response: MemberResponse,
  }, async ({ auth, params }) => ({ member: await members.get(auth, params.memberId) }));
}
