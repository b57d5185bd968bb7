/**
 * @module apps/tokens/client-routes
 * `POST /client/v1/agent-builder-tokens`: a member mints an agent builder token for themselves,
 * for one turn of an agent builder sandbox (previews of apps the member owns; apps/guards/deploy.ts).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { AgentBuilderTokenResponse } from './schemas.ts';
import type { TokenService } from './service.ts';

export function registerTokenClientRoutes(api: ClientApi, tokens: TokenService): void {
  api.route({
    operationId: 'createAgentBuilderToken', method: 'post', path: '/agent-builder-tokens', tag: 'api-keys', auth: 'member',
    summary: 'Mint an agent builder token for yourself (one agent turn)', status: 201, response: AgentBuilderTokenResponse,
  }, async ({ auth }) => {
    const minted = await tokens.mint('agent', { memberId: auth.memberId, workspaceId: auth.workspaceId });
    return { token: minted.token, expiresAt: new Date(minted.expiresAt).toISOString() };
  });
}
