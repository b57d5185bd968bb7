/**
 * Integers a request carries stay within what their columns hold (issue 21, item 4). Versions and
 * revisions the service counts are kept in 32-bit columns, so a request naming one past 2^31 - 1
 * (`COUNTER_MAX`) names none: it is refused where it is parsed with a tagged 400, and the OpenAPI
 * documents state the bound. At 2^31 - 1 the request is looked up (a 404 for none). Never a 500.
 */
import { COUNTER_MAX } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBoardWorld, type BoardWorld } from '../blocks/setup.ts';
import type { ApiResponse } from '../../helpers/stack.ts';

let world: BoardWorld;
let blockId: string;
const docs: Record<string, any> = {};
beforeAll(async () => {
  world = await startBoardWorld();
  blockId = (await world.insert()).id;
  for (const base of ['/client/v1', '/v0']) docs[base] = await (await world.stack.fetch(`${base}/openapi.json`)).json();
});
afterAll(async () => world?.stop());

const PAST = COUNTER_MAX + 1;

function expectInvalid(res: ApiResponse, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ _tag: 'PlatformApiInvalidRequestError', path: [field] });
}

function expectLookedUp(res: ApiResponse, statuses: number[]) {
  expect(statuses, JSON.stringify(res.body)).toContain(res.status);
  expect(res.status).toBeLessThan(500);
}

/** The JSON Schema of one request field (body property or parameter) in an OpenAPI document. */
function documentedField(base: string, method: string, path: string, field: string): Record<string, unknown> {
  const op = docs[base].paths[path][method];
  const param = (op.parameters ?? []).find((p: { name: string }) => p.name === field);
  if (param !== undefined) return param.schema;
  let schema = op.requestBody.content['application/json'].schema;
  if (schema.$ref !== undefined) schema = docs[base].components.schemas[schema.$ref.split('/').pop()];
  return schema.properties[field];
}

describe('app versions (the three operations the outside run found)', () => {
  it('POST /v0/apps/{app_id}/rollback {"version": 2^31}: 400; 2^31 - 1: looked up', async () => {
    const tooling = world.stack.v0(world.ws.apiKey);
    expectInvalid(await tooling.post(`/apps/${world.appId}/rollback`, { version: PAST }), 'version');
    expectLookedUp(await tooling.post(`/apps/${world.appId}/rollback`, { version: COUNTER_MAX }), [404, 409, 422]);
    expect(documentedField('/v0', 'post', '/apps/{app_id}/rollback', 'version')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('POST /v0/apps/{app_id}/deliveries/{delivery_id}/replay {"version": 2^31}: 400; 2^31 - 1: looked up', async () => {
    const tooling = world.stack.v0(world.ws.apiKey);
    expectInvalid(await tooling.post(`/apps/${world.appId}/deliveries/del_nope/replay`, { version: PAST }), 'version');
    expectLookedUp(await tooling.post(`/apps/${world.appId}/deliveries/del_nope/replay`, { version: COUNTER_MAX }), [404]);
    expect(documentedField('/v0', 'post', '/apps/{app_id}/deliveries/{delivery_id}/replay', 'version')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('GET /v0/apps/{app_id}/versions?before=2^31: 400; 2^31 - 1: the page', async () => {
    const tooling = world.stack.v0(world.ws.apiKey);
    expectInvalid(await tooling.get(`/apps/${world.appId}/versions?before=${PAST}`), 'before');
    const page = await tooling.get(`/apps/${world.appId}/versions?before=${COUNTER_MAX}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.length).toBeGreaterThan(0);
    expect(documentedField('/v0', 'get', '/apps/{app_id}/versions', 'before')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('GET /v0/apps/{app_id}/versions/{version} at 2^31: 400; 2^31 - 1: 404', async () => {
    const tooling = world.stack.v0(world.ws.apiKey);
    expectInvalid(await tooling.get(`/apps/${world.appId}/versions/${PAST}`), 'version');
    expectLookedUp(await tooling.get(`/apps/${world.appId}/versions/${COUNTER_MAX}`), [404]);
  });
});

describe('installs, blocks and clicks', () => {
  it('approving an install version of 2^31: 400; 2^31 - 1: looked up', async () => {
    expectInvalid(await world.ws.client.post(`/installs/${world.installId}/approve`, { version: PAST }), 'version');
    expectLookedUp(await world.ws.client.post(`/installs/${world.installId}/approve`, { version: COUNTER_MAX }), [404, 409]);
    expect(documentedField('/client/v1', 'post', '/installs/{installId}/approve', 'version')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('installing at version 2^31: 400', async () => {
    expectInvalid(await world.ws.client.post(`/apps/${world.appId}/installs`, { version: PAST }), 'version');
  });

  it('a block update expecting version 2^31: 400; 2^31 - 1: the version conflict', async () => {
    const app = await world.app();
    expectInvalid(await app.patch(`/blocks/${blockId}`, { state: {}, expectedVersion: PAST }), 'expectedVersion');
    expectLookedUp(await app.patch(`/blocks/${blockId}`, { state: {}, expectedVersion: COUNTER_MAX }), [409]);
    expect(documentedField('/v0', 'patch', '/blocks/{block_id}', 'expectedVersion')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('a click on revision 2^31: 400; 2^31 - 1: the stale-revision refusal', async () => {
    expectInvalid(await world.member.client.post(`/blocks/${blockId}/click`, { revision: PAST, ref: 'a0' }), 'revision');
    expectLookedUp(await world.member.client.post(`/blocks/${blockId}/click`, { revision: COUNTER_MAX, ref: 'a0' }), [404, 409, 422]);
    expect(documentedField('/client/v1', 'post', '/blocks/{blockId}/click', 'revision')).toMatchObject({ maximum: COUNTER_MAX });
  });

  it('app logs of version 2^31: 400', async () => {
    expectInvalid(await world.stack.v0(world.ws.apiKey).get(`/apps/${world.appId}/logs?version=${PAST}`), 'version');
  });
});
