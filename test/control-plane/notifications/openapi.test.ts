/**
 * The notifications and memories routes are documented: `POST /v0/notifications` and
 * `POST /v0/memories` with sandbox-lib's request and response shapes in `/v0/openapi.json`, and
 * the members' reads (`GET /notifications`, `GET /memories`) in `/client/v1/openapi.json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '@platform/sdk';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack.stop());

const doc = async (path: string) => (await (await stack.fetch(path)).json()) as any;

describe('OpenAPI documents', () => {
  it('list POST /v0/notifications and POST /v0/memories at the paths of API_ROUTES, with their errors', async () => {
    const v0 = await doc('/v0/openapi.json');
    for (const [name, errors] of [['notification', ['400', '401', '403', '404', '413', '429']], ['memory', ['400', '401', '403', '413', '429']]] as const) {
      const route = API_ROUTES[name];
      const op = v0.paths[route.path.replace(/^\/v0/, '')]?.post;
      expect(op, route.path).toBeDefined();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['201', ...errors]));
      expect(op.security).toEqual([{ install: [] }]);
      expect(op.requestBody.content['application/json'].schema).toBeDefined();
    }
  });

  it('list the members\' reads under /client/v1', async () => {
    const client = await doc('/client/v1/openapi.json');
    expect(client.paths['/notifications'].get.operationId).toBe('listNotifications');
    expect(client.paths['/memories'].get.operationId).toBe('listMemories');
  });
});
