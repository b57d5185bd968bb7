/**
 * Who may manage an app's drains, and where a drain may send. A drain receives production's lines,
 * so a preview-only deploy token and an agent builder token are refused (403) where a full deploy
 * token is not; a host name that resolves to a private address is refused at send by the deliveries
 * area's guard (the name passed the check when the drain was added), recorded as the drain's failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { agentToken, deployToken } from '../apps/helpers.ts';

let stack: Stack;
let ws: CreatedWorkspace;
let appId: string;

beforeAll(async () => {
  // drain.example.test resolves to a private address, as a hostile name can.
  stack = await startStack({ deliveries: { resolve: (_host, callback) => callback(null, [{ address: '10.0.0.9', family: 4 }]) } });
  ws = await stack.createWorkspace();
  appId = (await ws.client.post('/apps', { name: 'Guarded', slug: 'drains-guarded', hosting: 'platform' })).body.app.id;
}, 60_000);
afterAll(async () => stack?.stop());

describe('log drain access and egress', () => {
  it('refuses credentials that read preview lines only, and takes a full deploy token', async () => {
    for (const token of [await deployToken(stack, appId, true), await agentToken(stack, ws.apiKey)]) {
      const listed = await stack.v0(token).get(`/apps/${appId}/log-drains`);
      expect(listed.status).toBe(403);
      expect(listed.body._tag).toBe('PlatformAppDeployTargetForbiddenError');
      expect((await stack.v0(token).post(`/apps/${appId}/log-drains`, { url: 'https://drain.example.test/in' })).status).toBe(403);
    }
    expect((await stack.v0(await deployToken(stack, appId, false)).get(`/apps/${appId}/log-drains`)).status).toBe(200);
  });

  it('refuses at send a name that resolves to a private address, as the drain\'s failure', async () => {
    const added = await stack.v0(ws.apiKey).post(`/apps/${appId}/log-drains`, { url: 'https://drain.example.test/in' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const tested = await stack.v0(ws.apiKey).post(`/apps/${appId}/log-drains/${added.body.drain.id}/test`);
    expect(tested.body).toMatchObject({ delivered: false, status: null, error: expect.stringMatching(/^refused: .*10\.0\.0\.9/) });

    await stack.controlPlane.apps.logs.ingest('node-test', [{
      at: new Date(stack.clock.now()).toISOString(), appId, version: 1, requestId: 'r1', deliveryId: null, installId: null, kind: 'route', level: 'info', status: 'ok', message: 'to nowhere',
    }]);
    await stack.controlPlane.logDrains.shipper.tick();
    const [drain] = (await stack.v0(ws.apiKey).get(`/apps/${appId}/log-drains`)).body.items;
    expect(drain).toMatchObject({ state: 'active', failures: 1, lastStatus: null, lastError: expect.stringMatching(/^refused: /) });
  });
});
