/**
 * @module apps/credentials/schemas
 * `GET /v0/whoami` (ours): what the service knows about the credential a request carries, so an
 * app or a CLI can check a token before relying on it. The shape is the `Caller` itself.
 */
import { z } from 'zod';

const id = z.string();

export const WhoamiResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('member'), workspaceId: id, memberId: id, role: z.enum(['owner', 'admin', 'member']) }),
  z.object({
    kind: z.literal('install'), workspaceId: id, appId: id, installId: id, installKind: z.enum(['workspace', 'dev']),
    scopes: z.array(z.string()).describe('The scopes the install\'s admin approved, as of now'),
  }),
  z.object({ kind: z.literal('interaction'), workspaceId: id, appId: id, installId: id, blockId: id.nullable(), invocationId: id.nullable() }),
  z.object({ kind: z.literal('deploy'), appId: id, previewOnly: z.boolean() }),
  z.object({ kind: z.literal('agent'), workspaceId: id, memberId: id }),
  z.object({ kind: z.literal('client'), appId: id }),
]).meta({ id: 'Caller' });
