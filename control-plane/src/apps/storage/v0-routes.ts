/**
 * @module apps/storage/v0-routes
 * `/v0/storage/get`, `/v0/storage/list` and `/v0/storage/commit`: app storage, our extension of the
 * spec (docs/decisions/storage.md), with the shapes of `API_ROUTES.storage…`.
 */
import { API_ROUTES, LIMITS } from '@platform/sdk';
import type { V0Api } from '../../core/http/v0-api.ts';
import { z } from 'zod';
import type { Db } from '../../core/db/db.ts';
import { parseWith } from '../../core/http/read-json.ts';
import type { StorageService } from './service.ts';
import { toolingSpace } from './tooling.ts';

const L = LIMITS.storage;
const KB = 1024;
// Each body's largest legal content, and room for the JSON around it (quotes, escapes, field names).
const GET_BODY_BYTES = L.keysPerGetMany * (L.keyBytes + 16) + 4 * KB;
const LIST_BODY_BYTES = 3 * L.keyBytes * 2 + 8 * KB;
const COMMIT_BODY_BYTES = L.commitBytes + 64 * KB;

const EXTENSION = 'Our extension of the spec: app storage, one key-value space per app, workspace and install kind. ';
const common = [
  { status: 422, description: 'PlatformAppStorageLimitExceededError (`limit` names the row of the limits, `max` its value)' },
  { status: 429, description: `PlatformApiRateLimitExceededError: over ${L.operationsPerSecondPerInstall} storage operations a second for the install (see \`retry-after\`)` },
];

const ToolingParams = z.object({ app_id: z.string().min(1).max(64), install: z.enum(['dev', 'workspace']) });
const toolingErrors = [
  ...common,
  { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only credential wrote to the workspace install\'s data' },
  { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not use tooling on it' },
];

export function registerStorageV0Routes(api: V0Api, storage: StorageService, db: Db): void {
  registerAppRoutes(api, storage);
  const space = (auth: Parameters<typeof toolingSpace>[1], params: Record<string, string>, writes: boolean) => {
    const p = parseWith(ToolingParams, params);
    return toolingSpace(db, auth, p.app_id, p.install, writes);
  };
  const TOOLING = 'Tooling (the CLI\'s `platform storage`, the console): the data of the app\'s development install (`dev`) or of its workspace install in the app\'s own workspace (`workspace`). ';
  api.route({
    operationId: 'getAppStorageEntries', method: 'post', path: '/apps/{app_id}/storage/{install}/get', tag: 'tooling', auth: 'tooling', status: 200, reads: true,
    summary: 'Read keys of an app\'s storage (tooling)', description: `${EXTENSION}${TOOLING}`,
    body: API_ROUTES.storageGet.body, maxBytes: GET_BODY_BYTES, response: API_ROUTES.storageGet.response, errors: toolingErrors,
  }, async ({ auth, params, body }) => storage.get(await space(auth, params, false), body));
  api.route({
    operationId: 'listAppStorageEntries', method: 'post', path: '/apps/{app_id}/storage/{install}/list', tag: 'tooling', auth: 'tooling', status: 200, reads: true,
    summary: 'List an app\'s storage by prefix or range (tooling)', description: `${EXTENSION}${TOOLING}`,
    body: API_ROUTES.storageList.body, maxBytes: LIST_BODY_BYTES, response: API_ROUTES.storageList.response, errors: toolingErrors,
  }, async ({ auth, params, body }) => storage.list(await space(auth, params, false), body));
  api.route({
    operationId: 'commitAppStorage', method: 'post', path: '/apps/{app_id}/storage/{install}/commit', tag: 'tooling', auth: 'tooling', status: 200,
    summary: 'Commit checks and mutations to an app\'s storage (tooling)', description: `${EXTENSION}${TOOLING}Writes need deploy rights for the matching target.`,
    body: API_ROUTES.storageCommit.body, maxBytes: COMMIT_BODY_BYTES, response: API_ROUTES.storageCommit.response,
    errors: [...toolingErrors, { status: 409, description: 'PlatformAppStorageCheckFailedError, PlatformAppStorageQuotaExceededError' }],
  }, async ({ auth, params, body }) => storage.commit(await space(auth, params, true), body));
}

function registerAppRoutes(api: V0Api, storage: StorageService): void {
  api.route({
    operationId: 'getStorageEntries', method: 'post', path: '/storage/get', tag: 'storage', auth: 'installOrInteraction', status: 200, reads: true,
    summary: 'Read up to 100 keys of the install\'s storage',
    description: `${EXTENSION}Answers one entry per key in the order asked; an absent (or expired) key has \`value\` and \`versionstamp\` null. `
      + 'With an interaction token, the action\'s staged writes are read as if committed.',
    body: API_ROUTES.storageGet.body, maxBytes: GET_BODY_BYTES, response: API_ROUTES.storageGet.response, errors: common,
  }, async ({ auth, body }) => storage.get(auth, body));

  api.route({
    operationId: 'listStorageEntries', method: 'post', path: '/storage/list', tag: 'storage', auth: 'installOrInteraction', status: 200, reads: true,
    summary: 'List the install\'s entries by prefix or range, in key order (UTF-8 bytes) or reversed, a page at a time',
    description: `${EXTENSION}\`start\` is inclusive, \`end\` exclusive; with \`prefix\` too, the range within the prefix. `
      + `\`limit\` defaults to ${L.listLimitDefault}, at most ${L.listLimitMax}; \`cursor\` (null on the last page) continues.`,
    body: API_ROUTES.storageList.body, maxBytes: LIST_BODY_BYTES, response: API_ROUTES.storageList.response, errors: common,
  }, async ({ auth, body }) => storage.list(auth, body));

  api.route({
    operationId: 'commitStorage', method: 'post', path: '/storage/commit', tag: 'storage', auth: 'installOrInteraction', status: 200,
    summary: 'Apply checks and mutations (set, delete, sum) all or nothing, under one new versionstamp',
    description: `${EXTENSION}Up to ${L.checksPerCommit} checks (the key's versionstamp, or null for absent) and ${L.mutationsPerCommit} mutations, `
      + `keys and values at most ${L.commitBytes} bytes together; keys at most ${L.keyBytes} bytes, values ${L.valueBytes} bytes as compact JSON; `
      + `an install keeps at most ${L.keysPerInstall} keys and ${L.bytesPerInstall} bytes. With an interaction token of a block action, `
      + 'the commit is staged and applied in the transaction that applies the action\'s result (docs/decisions/storage.md).',
    body: API_ROUTES.storageCommit.body, maxBytes: COMMIT_BODY_BYTES, response: API_ROUTES.storageCommit.response,
    errors: [
      ...common,
      { status: 409, description: 'PlatformAppStorageCheckFailedError (`checkIndex`, `key`): a check saw another versionstamp; PlatformAppStorageQuotaExceededError (`limit`, `max`)' },
      { status: 422, description: 'PlatformAppStorageNotANumberError (`key`): a sum met a value that is not a number' },
    ],
  }, async ({ auth, body }) => storage.commit(auth, body));
}
