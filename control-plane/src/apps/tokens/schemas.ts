/**
 * @module apps/tokens/schemas
 * Wire shapes of `POST /client/v1/agent-builder-tokens`.
 */
import { z } from 'zod';
import { Timestamp } from '../../core/http/common.ts';

export const AgentBuilderTokenResponse = z.object({
  token: z.string().describe('`platagt_…`: tooling for previews of apps you own, 15 minutes'),
  expiresAt: Timestamp,
});
