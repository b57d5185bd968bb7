/**
 * @module messaging/memories/schemas
 * The member's side of workspace memories in the client API (ours: the spec does not show the
 * memory record). The app's side is sandbox-lib's `MemoryRequestSchema` / `MemoryResponseSchema`.
 */
import { z } from 'zod';
import { LIMITS } from '@platform/sdk';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, page, visibleText } from '../../core/http/common.ts';
import { graphemeLength } from '../../core/http/text.ts';
import { CreditedApp } from '../notifications/schemas.ts';

export const Memory = z
  .object({
    id: Id,
    title: z.string().nullable(),
    text: z.string(),
    app: CreditedApp.nullable().describe('The app credited with the memory; null once the app is deleted'),
    createdAt: Timestamp,
    editedAt: Timestamp.nullable().describe('When a member last edited it; null when never'),
    editedBy: Id.nullable().describe('The member who last edited it (null when never, or once that member is gone)'),
  })
  .meta({ id: 'Memory' });
export type Memory = z.output<typeof Memory>;

export const MemoryPage = page(Memory);

const E = LIMITS.endpoints;

/** A title as a member types it: trimmed; empty (or null) means no title. */
const Title = z.string().trim()
  .refine((s) => graphemeLength(s) <= E.memoryTitleMax, `Keep this to ${E.memoryTitleMax} characters or fewer`)
  .refine((s) => Buffer.byteLength(s) <= E.memoryTitleMax * CLIENT_LIMITS.bytesPerGrapheme, 'Too many bytes for this field')
  .meta({ maxLength: E.memoryTitleMax })
  .nullable();

export const EditMemoryRequest = z.strictObject({
  text: visibleText(E.memoryTextMax).optional().describe(`1 to ${E.memoryTextMax} characters with visible text (trimmed)`),
  title: Title.optional().describe(`At most ${E.memoryTitleMax} characters; null or empty removes the title`),
}).refine((b) => b.text !== undefined || b.title !== undefined, { message: 'Send text, title or both', path: [] });

export const MemoryResponse = z.object({ memory: Memory });

/** Both texts at their longest, at the client API's bytes per character, and room for the JSON around them. */
export const EDIT_MEMORY_MAX_BYTES = (E.memoryTextMax + E.memoryTitleMax) * CLIENT_LIMITS.bytesPerGrapheme + 1024;
