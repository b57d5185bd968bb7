/**
 * @module workspace/workspaces/client-routes
 * `POST /workspaces`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { CreateWorkspaceBody, CreateWorkspaceResponse } from './schemas.ts';
import type { WorkspacesService } from './service.ts';

export function registerWorkspaceClientRoutes(api: ClientApi, workspaces: WorkspacesService): void {
  api.route({
    operationId: 'createWorkspace', method: 'post', path: '/workspaces', tag: 'workspaces', auth: 'operator',
    summary: 'Create a workspace with its owner; answers the owner\'s API key once',
    description: 'Open in the embedded default; otherwise needs `authorization: Bearer <OPERATOR_TOKEN>`.',
    body: CreateWorkspaceBody, status: 201, response: CreateWorkspaceResponse,
  }, async ({ body }) => workspaces.create({ name: body.name, ownerName: body.owner.name }));
}
