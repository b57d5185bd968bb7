/**
 * Storage for tooling (`/v0/apps/{app_id}/storage/{install}/…`, what `platform storage` and the
 * console's browser call): the author reads and writes the workspace install's data and the
 * development install's, apart; someone who may not use tooling on the app finds no app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInboxWorld, type InboxWorld, type Installed } from '../notifications/setup.ts';

let w: InboxWorld;
let app: Installed;
let dev: Installed;
beforeAll(async () => {
  w = await startInboxWorld();
  app = await w.installApp([], 'Browsed');
  dev = await w.devApp([]);
});
afterAll(async () => {
  await w?.stop();
});

describe('tooling storage', () => {
  it('the owner reads what the workspace install wrote, and writes what the install then reads', async () => {
    await (await app.api()).post('/storage/commit', { mutations: [{ type: 'set', key: 'from/app', value: 1 }] });
    const owner = w.stack.v0(w.ws.apiKey);
    const listed = await owner.post(`/apps/${app.appId}/storage/workspace/list`, { prefix: 'from/' });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.entries.map((e: any) => [e.key, e.value])).toEqual([['from/app', 1]]);
    const set = await owner.post(`/apps/${app.appId}/storage/workspace/commit`, { mutations: [{ type: 'set', key: 'from/cli', value: 'hi' }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await (await app.api()).post('/storage/get', { keys: ['from/cli'] })).body.entries[0].value).toBe('hi');
    // The development install's space of the same app is another one.
    expect((await owner.post(`/apps/${app.appId}/storage/dev/list`, {})).body.entries).toEqual([]);
  });

  it('the developer reaches the development install\'s data; other members find no app', async () => {
    await (await dev.api()).post('/storage/commit', { mutations: [{ type: 'set', key: 'dev/k', value: true }] });
    const developer = w.stack.v0(w.developer.apiKey);
    const got = await developer.post(`/apps/${dev.appId}/storage/dev/get`, { keys: ['dev/k'] });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.entries[0].value).toBe(true);
    const stranger = await w.stack.v0(w.member.apiKey).post(`/apps/${dev.appId}/storage/dev/get`, { keys: ['dev/k'] });
    expect(stranger.status).toBe(404);
    expect(stranger.body._tag).toBe('PlatformAppNotFoundError');
    const bad = await developer.post(`/apps/${dev.appId}/storage/staging/get`, { keys: ['dev/k'] });
    expect(bad.status).toBe(400);
  });
});
