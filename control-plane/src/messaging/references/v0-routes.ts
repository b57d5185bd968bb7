/**
 * @module messaging/references/v0-routes
 * `PUT /v0/references` (push reference fields) and `POST /v0/references/revalidate` (ask for a new
 * resolve), with the paths and shapes of `API_ROUTES`; install token with `references:write`.
 */
import { API_ROUTES } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import type { ReferencesService } from './service.ts';

const R = API_ROUTES;
// A block tree is at most 64 KB serialized; its action table and the other fields come beside it.
const PUSH_BODY_BYTES = 160 * 1024;

const scope = { status: 403, description: 'PlatformAppScopeMissingError (`references:write`), PlatformAppInstallRevokedError' };
const kindUnknown = { status: 422, description: 'PlatformAppReferenceKindUnknownError: the installed version has no such reference kind' };

export function registerReferenceV0Routes(api: V0Api, references: ReferencesService): void {
  api.route({
    operationId: 'pushReference', method: 'put', path: '/references', tag: 'references', auth: 'install', status: 200,
    summary: 'Push fields of a reference (kind, externalId) to every occurrence of it in the workspace',
    description: 'Scope `references:write`. Every link resolving to the same kind and externalId shares one record, so the push reaches all of '
      + 'them. `fields` are merged into the stored ones (null removes an optional field; a `block` is checked like any tree). A push whose '
      + '`version` is not above the stored one is not applied: `applied: false` with the stored `version`.',
    body: R.referencePush.body, maxBytes: PUSH_BODY_BYTES, response: R.referencePush.response, errors: [scope, kindUnknown],
  }, async ({ auth, body }) => references.push(auth, body));

  api.route({
    operationId: 'revalidateReference', method: 'post', path: '/references/revalidate', tag: 'references', auth: 'install', status: 200,
    summary: 'Ask for a new resolve of a reference (kind, externalId)',
    description: 'Scope `references:write`. The record is marked stale and its next view sends `reference.resolve` again (the last good fields '
      + 'show meanwhile and if that resolve is unavailable). `scheduled` is false when no link resolved to this object yet.',
    body: R.referenceRevalidate.body, response: R.referenceRevalidate.response, errors: [scope, kindUnknown],
  }, async ({ auth, body }) => references.revalidate(auth, body));
}
