/**
 * @module messaging/search/client-routes
 * `GET /client/v1/search`: a member searches the objects apps added with `PUT /v0/search/objects`,
 * seeing only the ones they may see.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import type { MemberSearch } from './member-search.ts';
import { MemberSearchQuery, SearchResultPage } from './schemas.ts';

export function registerSearchClientRoutes(api: ClientApi, search: MemberSearch): void {
  api.route({
    operationId: 'searchObjects', method: 'get', path: '/search', tag: 'search', auth: 'member', status: 200,
    summary: 'Search the objects apps added (references), best match first',
    description: 'Objects of the workspace\'s active installs, for kinds searchable in the version each runs, visible workspace-wide or in a '
      + 'circle you can see. `q` matches every word in titles, subtitles and bodies (a word also matches the start of a longer one); '
      + 'without `q`, newest first. At most 50 a page; `nextCursor` fetches the next one.',
    query: MemberSearchQuery, response: SearchResultPage,
  }, async ({ auth, query }) => search.search(auth, query));
}
