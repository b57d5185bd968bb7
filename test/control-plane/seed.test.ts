/**
 * The demo seed of `npm start`: created once with everything the issue lists, and credentials.json
 * kept working across restarts.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, createPgliteDb, migrate, type Db } from '@platform/control-plane';
import { createWorkspaceArea } from '../../control-plane/src/wiring/workspace.ts';
import { seedDemo } from '../../control-plane/src/seed/demo.ts';
import { writeCredentials } from '../../control-plane/src/seed/credentials.ts';

let db: Db;
let dir: string;
const clock = createManualClock();

beforeAll(async () => {
  db = await createPgliteDb();
  await migrate(db);
  dir = await mkdtemp(join(tmpdir(), 'seed-'));
});
afterAll(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('demo seed', () => {
  it('creates the demo workspace once, with owner, member, circles and a conversation with messages', async () => {
    const first = await seedDemo({ db, clock });
    expect(first.created).toBe(true);
    expect(first.keys?.owner).toMatch(/^platkey_/);
    const again = await seedDemo({ db, clock });
    expect(again).toEqual({ created: false, demo: first.demo });
    expect((await db.query('select * from workspaces')).rowCount).toBe(1);

    const services = createWorkspaceArea({ db, clock });
    const owner = await services.apiKeys.authenticate(first.keys!.owner);
    expect(owner).toMatchObject({ memberId: first.demo.owner.id, role: 'owner' });
    const circles = await services.circles.list(owner!, { limit: 50 });
    expect(circles.items.map((c) => c.visibility).sort()).toEqual(['private', 'public']);
    const messages = await services.messages.listInConversation(owner!, first.demo.conversationId, { limit: 50 });
    expect(messages.items.length).toBeGreaterThanOrEqual(2);
    const member = await services.apiKeys.authenticate(first.keys!.member);
    expect(member).toMatchObject({ memberId: first.demo.member.id, role: 'member' });
  });

  it('writes credentials.json (0600) and keeps working keys across restarts, issuing new ones if lost', async () => {
    const services = createWorkspaceArea({ db, clock });
    const urls = { controlPlane: 'http://localhost:4000', runtime: 'http://localhost:4001' };
    const seed = await seedDemo({ db, clock }); // a restart: no keys in hand
    await writeFile(join(dir, 'credentials.json'), '{ not json');
    const fresh = await writeCredentials({ dataDir: dir, seed, apiKeys: services.apiKeys, urls, operatorToken: null });
    expect((await services.apiKeys.authenticate(fresh.owner.apiKey))?.memberId).toBe(seed.demo.owner.id);
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);

    const kept = await writeCredentials({ dataDir: dir, seed, apiKeys: services.apiKeys, urls, operatorToken: 'op-token' });
    expect(kept.owner.apiKey).toBe(fresh.owner.apiKey);
    expect(kept.member.apiKey).toBe(fresh.member.apiKey);
    const onDisk = JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'));
    expect(onDisk).toMatchObject({ controlPlaneUrl: urls.controlPlane, clientApi: 'http://localhost:4000/client/v1', operatorToken: 'op-token', workspace: seed.demo.workspace });
  });
});
