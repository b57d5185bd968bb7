/**
 * @module messaging/memories/schemas
 * The member's side of workspace memories in the client API (ours: the spec does not show the
 * memory record). The app's side is sandbox-lib's `MemoryRequestSchema` / `MemoryResponseSchema`.
 */
import { z } from 'zod';
import { Id, Timestamp, page } from '../../core/http/common.ts';
import { CreditedApp } from '../notifications/schemas.ts';

export const Memory = z
  .object({
    id: Id,
    title: z.string().nullable(),
    text: z.string(),
    app: CreditedApp.nullable().describe('The app credited with the memory; null once the app is deleted'),
    createdAt: Timestamp,
  })
  .meta({ id: 'Memory' });
export type Memory = z.output<typeof Memory>;

export const MemoryPage = page(Memory);
