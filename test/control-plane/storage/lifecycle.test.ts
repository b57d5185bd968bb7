/**
 * The lifecycle of app storage over real HTTP and Postgres: an uninstall keeps the data 30 days and
 * a reinstall within them finds it; past them the sweeper (on the stack's clock) purges it; an
 * admin purges at once and sees the bytes each app keeps; expired entries are removed and give
 * their bytes back; abandoned units of work are dropped.
 */
import { LIMITS } from '@platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, install, sync } from '../apps/helpers.ts';
import { scopedManifest, startInboxWorld, type InboxWorld } from '../notifications/setup.ts';

let w: InboxWorld;
beforeAll(async () => {
  w = await startInboxWorld();
});
afterAll(async () => {
  await w?.stop();
});

const DAY = 86_400_000;
const sweep = () => w.stack.controlPlane.apps.storageSweeper.sweep();

/** An app installed in the workspace, with a token for whichever install is current. */
async function installedApp(name: string) {
  const app = await createApp(w.ws.client, { name });
  await sync(w.stack, w.ws.apiKey, app.app.id, scopedManifest(app.app.slug, [], name), 'production');
  let installId = (await install(w.ws, app.app.id)).id;
  const api = async () => w.stack.v0((await w.stack.controlPlane.tokens.mint('install', { installId, appId: app.app.id, workspaceId: w.ws.workspace.id })).token);
  return {
    appId: app.app.id,
    api,
    async reinstall() { installId = (await install(w.ws, app.app.id)).id; },
    async uninstall() { expect((await w.ws.client.delete(`/installs/${installId}`)).status).toBe(204); },
  };
}
type App = Awaited<ReturnType<typeof installedApp>>;
const put = async (a: App, key: string, value: unknown, extra = {}) => {
  const res = await (await a.api()).post('/storage/commit', { mutations: [{ type: 'set', key, value, ...extra }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const read = async (a: App, key: string) => (await (await a.api()).post('/storage/get', { keys: [key] })).body.entries[0].value;
const usage = async (appId: string) => ((await w.ws.client.get('/storage')).body.items as any[]).find((u) => u.appId === appId);

describe('uninstall and reinstall', () => {
  it('keeps the data for 30 days after an uninstall; a reinstall within them finds it and keeps it for good', async () => {
    const a = await installedApp('Keeps');
    await put(a, 'k', 'kept');
    await a.uninstall();
    const retained = await usage(a.appId);
    expect(retained.purgeAfter).toBe(new Date(w.stack.clock.now() + LIMITS.storage.retainAfterUninstallMs).toISOString());
    w.stack.clock.advance(29 * DAY);
    await sweep();
    await a.reinstall();
    expect(await read(a, 'k')).toBe('kept');
    expect((await usage(a.appId)).purgeAfter).toBeNull();
    w.stack.clock.advance(60 * DAY);
    await sweep();
    expect(await read(a, 'k')).toBe('kept');
  });

  it('purges the data once the 30 days are over; a later reinstall starts empty', async () => {
    const a = await installedApp('Forgets');
    await put(a, 'k', 'gone soon');
    await a.uninstall();
    w.stack.clock.advance(LIMITS.storage.retainAfterUninstallMs - 1);
    expect((await sweep()).purgedSpaces).toBe(0);
    w.stack.clock.advance(1);
    expect((await sweep()).purgedSpaces).toBe(1);
    expect(await usage(a.appId)).toBeUndefined();
    await a.reinstall();
    expect(await read(a, 'k')).toBeNull();
  });
});

describe('admins', () => {
  let a: App;
  beforeAll(async () => {
    a = await installedApp('Counted');
    await put(a, 'ab', 'xy');
  });

  it('are told on the consent screen that the app keeps data, how much and for how long', async () => {
    const res = await w.ws.client.get(`/apps/${a.appId}/consent`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.consent.storage).toEqual({ maxBytes: LIMITS.storage.bytesPerInstall, retainDays: 30 });
  });

  it('see the keys and bytes each app keeps; members may not', async () => {
    expect(await usage(a.appId)).toEqual({ appId: a.appId, appName: 'Counted', keys: 1, bytes: 2 + 4, purgeAfter: null });
    const res = await w.member.client.get('/storage');
    expect(res.status).toBe(403);
    expect(res.body._tag).toBe('PlatformApiForbiddenError');
  });

  it('purge an app\'s data at once (members may not); a second purge finds nothing', async () => {
    expect((await w.member.client.delete(`/storage/${a.appId}`)).status).toBe(403);
    expect(await read(a, 'ab')).toBe('xy');
    expect((await w.ws.client.delete(`/storage/${a.appId}`)).status).toBe(204);
    expect(await read(a, 'ab')).toBeNull();
    const again = await w.ws.client.delete(`/storage/${a.appId}`);
    expect(again.status).toBe(404);
    expect(again.body._tag).toBe('PlatformApiNotFoundError');
    // Another workspace's admin purges nothing of this one.
    expect((await w.foreign.client.delete(`/storage/${a.appId}`)).status).toBe(404);
  });
});

describe('the sweeper', () => {
  it('removes expired entries and gives their keys and bytes back to the space', async () => {
    const a = await installedApp('Expires');
    await put(a, 'stay', 1);
    await put(a, 'go', 'bye', { expireIn: 1_000 });
    expect((await usage(a.appId)).keys).toBe(2);
    w.stack.clock.advance(1_000);
    const swept = await sweep();
    expect(swept.expiredEntries).toBeGreaterThanOrEqual(1);
    expect(await usage(a.appId)).toMatchObject({ keys: 1, bytes: 4 + 1 });
  });

  it('drops units of work whose action never answered', async () => {
    const uow = w.stack.controlPlane.apps.unitOfWork;
    const units = async () => (await w.stack.db.query<{ n: number }>('select count(*)::int as n from units_of_work where key = $1', ['abandoned-unit'])).rows[0]!.n;
    expect(await uow.stage(w.stack.db, 'abandoned-unit', 'queue.send', { n: 1 })).toBe(true);
    expect(await units()).toBe(1);
    // A unit lives as long as the interaction token that staged in it.
    w.stack.clock.advance(LIMITS.tokens.interactionTokenSeconds * 1000);
    await sweep();
    expect(await units()).toBe(0);
    expect(await uow.stage(w.stack.db, 'abandoned-unit', 'queue.send', { n: 2 })).toBe(false);
  });
});

