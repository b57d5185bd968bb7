/**
 * @module workspace/api-keys/schemas
 * Wire shapes of member API keys. The key itself appears only in the answer that creates it.
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, nameText } from '../../core/http/common.ts';

export const ApiKeyInfo = z
  .object({
    id: Id,
    name: z.string(),
    hint: z.string().describe('Last four characters of the key'),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyInfo = z.output<typeof ApiKeyInfo>;

export const CreateApiKeyBody = z.strictObject({ name: nameText(CLIENT_LIMITS.apiKeyName) });
export const CreateApiKeyResponse = z.object({ key: ApiKeyInfo, apiKey: z.string().describe('Shown once; store it now') });
export const ApiKeyList = z.object({ items: z.array(ApiKeyInfo) });
