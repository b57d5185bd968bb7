/**
 * @module messaging/search/schemas
 * Wire shapes of the member's search over apps' search objects (client API, `GET /search`). The
 * app side (`/v0/search/objects`) uses sandbox-lib's shapes.
 */
import { z } from 'zod';
import { LIMITS, ReferenceKindSchema } from '@platform/sdk';
import { Id, Timestamp } from '../../core/http/common.ts';
import { graphemeLength } from '../../core/http/text.ts';

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_PAGE_DEFAULT = 20;

export const MemberSearchQuery = z.strictObject({
  q: z.string().trim()
    .refine((s) => graphemeLength(s) <= SEARCH_QUERY_MAX, `Keep this to ${SEARCH_QUERY_MAX} characters or fewer`)
    .optional()
    .describe('Words to find in titles, subtitles and bodies; each word also matches as the start of a longer one. Blank or absent: every object, newest first'),
  appId: Id.optional().describe('Only this app\'s objects'),
  kind: ReferenceKindSchema.optional().describe('Only objects of this reference kind'),
  limit: z.coerce.number().int().min(1).max(LIMITS.references.searchResultsPerQuery).default(SEARCH_PAGE_DEFAULT),
  cursor: z.string().max(200).optional(),
});
export type MemberSearchQuery = z.output<typeof MemberSearchQuery>;

export const SearchResult = z.object({
  app: z.object({ id: Id, name: z.string() }).describe('The app that added the object (results are attributed to it)'),
  kind: z.string(),
  externalId: z.string(),
  title: z.string(),
  url: z.string(),
  subtitle: z.string().optional(),
  updatedAt: Timestamp,
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResultPage = z.object({ items: z.array(SearchResult), nextCursor: z.string().nullable() });
