/**
 * The credential matrix of the tooling endpoints, over HTTP: which credential may call which
 * endpoint on which app and target. One row per credential, one column per endpoint; each cell
 * is the answer the spec gives (allowed; 404 PlatformAppNotFoundError as if the app were absent;
 * 403 PlatformAppDeployTargetForbiddenError; 401 for credentials tooling never accepts).
 * An allowed upload without a body answers 400: the guard let it through to read the bundle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type ApiResponse, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { basic } from '../credentials/fixtures.ts';
import { agentToken, createApp, deployToken, selfManifest, type CreatedApp } from './helpers.ts';

type Cell = 'ok' | 'not-found' | 'forbidden' | 'refused' | 'missing';

let stack: Stack;
let ws: CreatedWorkspace;
let owner: { apiKey: string };
let admin: { apiKey: string };
let member: { apiKey: string };
let foreign: CreatedWorkspace;
let selfApp: CreatedApp;
let hostedApp: CreatedApp;
let otherApp: CreatedApp;
let installId: string;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  owner = await stack.addMember(ws.apiKey, { role: 'member' });
  admin = await stack.addMember(ws.apiKey, { role: 'admin' });
  member = await stack.addMember(ws.apiKey, { role: 'member' });
  foreign = await stack.createWorkspace();
  selfApp = await createApp(stack.client(owner.apiKey));
  hostedApp = await createApp(stack.client(owner.apiKey), { hosting: 'platform' });
  otherApp = await createApp(stack.client(owner.apiKey));
  const dev = await stack.v0(owner.apiKey).put('/apps/dev', { manifest: selfManifest('matrix') });
  installId = dev.body.devInstallId;
});
afterAll(async () => stack.stop());

interface Endpoint {
  name: string;
  app: () => CreatedApp;
  call: (credential: string | undefined, appId: string) => Promise<ApiResponse>;
}

/** Sends a request with `credential` as it is meant: HTTP Basic as is, anything else as a bearer value. */
const send = (method: string, path: string, credential: string | undefined, body?: unknown) => stack.v0().request(method, path, {
  ...(body === undefined ? {} : { body }),
  headers: credential === undefined ? {} : { authorization: credential.startsWith('Basic ') ? credential : `Bearer ${credential}` },
});

const ENDPOINTS: Endpoint[] = [
  { name: 'PUT manifest (preview)', app: () => selfApp, call: (c, id) => send('PUT', `/apps/${id}/manifest`, c, { manifest: selfManifest(selfApp.app.slug), target: 'preview' }) },
  { name: 'PUT manifest (production)', app: () => selfApp, call: (c, id) => send('PUT', `/apps/${id}/manifest`, c, { manifest: selfManifest(selfApp.app.slug), target: 'production' }) },
  { name: 'GET manifest', app: () => selfApp, call: (c, id) => send('GET', `/apps/${id}/manifest?target=preview`, c) },
  { name: 'PUT env (production)', app: () => selfApp, call: (c, id) => send('PUT', `/apps/${id}/env/production/KEY`, c, { value: 'v' }) },
  { name: 'GET env (preview)', app: () => selfApp, call: (c, id) => send('GET', `/apps/${id}/env/preview`, c) },
  { name: 'POST versions (preview)', app: () => hostedApp, call: (c, id) => send('POST', `/apps/${id}/versions?target=preview`, c) },
  { name: 'POST versions (production)', app: () => hostedApp, call: (c, id) => send('POST', `/apps/${id}/versions?target=production`, c) },
  { name: 'PUT apps/dev', app: () => selfApp, call: (c) => send('PUT', '/apps/dev', c, { manifest: selfManifest('matrix') }) },
];

const ALL = (cell: Cell): Cell[] => ENDPOINTS.map(() => cell);

const ROWS: Array<[string, (appId: string) => Promise<string | undefined>, Cell[]]> = [
  ['member API key of the app\'s owner', async () => owner.apiKey, ALL('ok')],
  ['member API key of the workspace owner', async () => ws.apiKey, ALL('ok')],
  ['member API key of a workspace admin', async () => admin.apiKey, ALL('ok')],
  ['member API key of another member', async () => member.apiKey, [...ALL('not-found').slice(0, 7), 'ok']],
  ['member API key of another workspace\'s owner', async () => foreign.apiKey, [...ALL('not-found').slice(0, 7), 'ok']],
  ['deploy token for the app', (id) => deployToken(stack, id, false), [...ALL('ok').slice(0, 7), 'forbidden']],
  ['preview-only deploy token for the app', (id) => deployToken(stack, id, true), ['ok', 'forbidden', 'ok', 'forbidden', 'ok', 'ok', 'forbidden', 'forbidden']],
  ['deploy token for another app', () => deployToken(stack, otherApp.app.id, false), [...ALL('not-found').slice(0, 7), 'forbidden']],
  ['agent builder token of the app\'s owner', () => agentToken(stack, owner.apiKey), ['ok', 'forbidden', 'ok', 'forbidden', 'ok', 'ok', 'forbidden', 'ok']],
  ['agent builder token of a workspace admin', () => agentToken(stack, admin.apiKey), [...ALL('not-found').slice(0, 7), 'ok']],
  ['install token', () => installToken(), ALL('refused')],
  ['interaction token', () => interactionToken(), ALL('refused')],
  ['client credentials', async () => basic(selfApp.clientId, selfApp.clientSecret), ALL('refused')],
  ['no credential', async () => undefined, ALL('missing')],
];

async function devAppId(): Promise<string> {
  const { rows } = await stack.db.query<{ app_id: string }>('select app_id from installs where id = $1', [installId]);
  return rows[0]!.app_id;
}
async function installToken(): Promise<string> {
  return (await stack.controlPlane.tokens.mint('install', { installId, appId: await devAppId(), workspaceId: ws.workspace.id })).token;
}
async function interactionToken(): Promise<string> {
  return (await stack.controlPlane.tokens.mint('interaction', { installId, appId: await devAppId(), workspaceId: ws.workspace.id, blockId: 'blk_1', invocationId: null })).token;
}

function judge(res: ApiResponse, endpoint: string): Cell {
  if (res.status === 401) return res.body._tag === 'PlatformAppTokenMissingError' ? 'missing' : 'refused';
  if (res.status === 404) {
    expect(res.body._tag, endpoint).toBe('PlatformAppNotFoundError');
    return 'not-found';
  }
  if (res.status === 403) {
    expect(res.body._tag, endpoint).toBe('PlatformAppDeployTargetForbiddenError');
    return 'forbidden';
  }
  // An upload that passed the guard stops at the missing bundle.
  if (endpoint.startsWith('POST versions') && res.status === 400) {
    expect(res.body.issues[0].code, endpoint).toBe('content_type');
    return 'ok';
  }
  expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(200);
  return 'ok';
}

describe('tooling credential matrix', () => {
  for (const [name, credentialFor, expected] of ROWS) {
    it(name, async () => {
      const got: Cell[] = [];
      for (const endpoint of ENDPOINTS) {
        const app = endpoint.app();
        got.push(judge(await endpoint.call(await credentialFor(app.app.id), app.app.id), endpoint.name));
      }
      expect(Object.fromEntries(ENDPOINTS.map((e, i) => [e.name, got[i]]))).toEqual(Object.fromEntries(ENDPOINTS.map((e, i) => [e.name, expected[i]])));
    });
  }
});
