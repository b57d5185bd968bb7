/**
 * Issue 25 item 1 over real HTTP: `PUT /v0/apps/{app_id}/manifest?rollout=10` moves exactly
 * ⌈10 % · N⌉ of the N installs that may take the version (the first ones in the rollout's sha256
 * order) and no other install; new installs and deliveries to the rest
 * keep the version before; advance adds the next ones in the same order; a version that throws on
 * every request is aborted by the platform at the first evaluation after its 20th failure (and not
 * at the 19th), every install back on its version, the author told by a log line, the status
 * the console reads, and a mail to the owner over SMTP; a promoted rollout moves all.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRolloutWorld, type RolloutWorld } from './setup.ts';

const INSTALLS = 40;
let w: RolloutWorld;

beforeAll(async () => {
  w = await startRolloutWorld({ slug: 'notes', workspaces: INSTALLS });
}, 180_000);
afterAll(async () => w?.stop());

const rank = (rolloutId: string, installId: string) => createHash('sha256').update(`${rolloutId}:${installId}`).digest('hex');
const versions = async () => Promise.all(w.installs.map(async (i) => ({ installId: i.installId, version: await w.installVersion(i.installId) })));
const status = async () => (await w.stack.v0(w.owner.apiKey).get(`/apps/${w.appId}/rollout`)).body;
const metrics = async () => (await fetch(w.stack.metricsUrl)).text();
const settled = async () => {
  await w.stack.controlPlane.blocks.settled();
  await w.stack.controlPlane.deliveries.interactive.flush();
};
const onVersion = (list: Array<{ installId: string; version: number }>, v: number) => list.filter((i) => i.version === v).map((i) => i.installId).sort();

describe('a rollout at 10 %', () => {
  let rolloutId: string;
  let moved: string[];
  let failures = 0;

  it('moves exactly a tenth of the installs, the first in the rollout\'s hash order, and no other', async () => {
    expect((await w.stack.v0(w.owner.apiKey).get(`/apps/${w.appId}/rollout`)).body._tag).toBe('PlatformApiNotFoundError');
    const res = await w.publish('v2', '?rollout=10');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.version).toBe(2);
    const s = await status();
    expect(s).toMatchObject({ version: 2, percent: 10, status: 'running', installs: { moved: 4 } });
    rolloutId = s.id;
    const list = await versions();
    moved = onVersion(list, 2);
    expect(moved).toHaveLength(Math.ceil(INSTALLS / 10));
    expect(onVersion(list, 1)).toHaveLength(INSTALLS - 4);
    const expected = w.installs.map((i) => i.installId).sort((a, b) => (rank(rolloutId, a) < rank(rolloutId, b) ? -1 : 1)).slice(0, 4).sort();
    expect(moved).toEqual(expected);
    expect(s.installs.byVersion).toEqual([{ version: 1, installs: 36 }, { version: 2, installs: 4 }]);
  });

  it('leaves new installs on the version before, and refuses another production version meanwhile', async () => {
    const late = await w.stack.createWorkspace({ name: 'Late' });
    const consent = await late.client.get(`/apps/${w.appId}/consent`);
    expect(consent.status, JSON.stringify(consent.body)).toBe(200);
    expect((await late.client.post(`/apps/${w.appId}/installs`, { version: 2 })).body._tag).toBe('PlatformApiConflictError');
    const installed = await late.client.post(`/apps/${w.appId}/installs`, { version: 1 });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(installed.body.install.version).toBe(1);
    // Gone again, so the shares below are of the suite's 40.
    expect((await late.client.delete(`/installs/${installed.body.install.id}`)).status).toBe(204);
    const again = await w.publish('v3');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ _tag: 'PlatformApiConflictError' });
    expect(again.body.message).toContain('rolling out');
  });

  it('delivers to each install the version it runs', async () => {
    const stay = w.installs.find((i) => !moved.includes(i.installId))!.installId;
    const before = w.seen.length;
    expect(await w.insertCard(moved[0]!)).toBe(201);
    expect(await w.insertCard(stay)).toBe(201);
    expect(w.seen.slice(before)).toEqual([{ installId: moved[0], version: 2 }, { installId: stay, version: 1 }]);
  });

  it('advance keeps the installs moved and adds the next ones in the same order', async () => {
    w.stack.clock.advance(1_000);
    expect((await w.stack.v0(w.owner.apiKey).post(`/apps/${w.appId}/rollout/advance`, { percent: 10 })).body._tag).toBe('PlatformApiInvalidRequestError');
    const res = await w.stack.v0(w.owner.apiKey).post(`/apps/${w.appId}/rollout/advance`, { percent: 50 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ percent: 50, installs: { moved: 20 } });
    const now = onVersion(await versions(), 2);
    expect(now).toHaveLength(20);
    for (const id of moved) expect(now).toContain(id);
    const expected = w.installs.map((i) => i.installId).sort((a, b) => (rank(rolloutId, a) < rank(rolloutId, b) ? -1 : 1)).slice(0, 20).sort();
    expect(now).toEqual(expected);
    moved = now;
  });

  it('a version that throws on every request is aborted by the platform once it has 20 outcomes, every install back', async () => {
    w.throwing.add(2);
    w.stack.clock.advance(1_000);
    const old = w.installs.filter((i) => !moved.includes(i.installId)).slice(0, 10);
    for (const i of old) await w.insertCard(i.installId);
    // Below the minimum sample of the new version (20 outcomes) nothing is decided.
    const counted = (await status()).signals.new.outcomes as number;
    const failing = moved.slice(0, 19 - counted);
    for (const id of failing) await w.insertCard(id);
    await settled();
    expect(await w.stack.controlPlane.rolloutEvaluator.evaluate()).toEqual([]);
    const s19 = await status();
    expect(s19.status).toBe('running');
    expect(s19.signals.new).toEqual({ outcomes: 19, failures: failing.length });
    expect(s19.signals.old).toEqual({ outcomes: 11, failures: 0 });
    expect(s19.signals.newErrorGroups).toBe(1);
    // Operators see the rollout by version on the operator port.
    const during = await metrics();
    expect(during).toContain(`platform_rollout_percent{app="${w.appId}",version="2"} 50`);
    expect(during).toContain(`platform_rollout_outcomes{app="${w.appId}",version="2",side="new"} 19`);
    expect(during).toContain(`platform_rollout_failures{app="${w.appId}",version="2",side="new"} ${failing.length}`);
    expect(during).toContain(`platform_rollout_installs{app="${w.appId}",version="2"} 20`);

    await w.insertCard(moved[19]!);
    await settled();
    expect(await w.stack.controlPlane.rolloutEvaluator.evaluate()).toEqual([expect.stringMatching(/^rol_/)]);
    const s = await status();
    expect(s).toMatchObject({ status: 'aborted', abortedBy: 'platform', installs: { moved: 0 }, verdict: { worse: true } });
    expect(s.reason).toContain(`failed ${failing.length + 1} of 20`);
    // The figures stay those of the rollout's time: the installs moved back keep their failures on the new side.
    expect(s.signals.new).toEqual({ outcomes: 20, failures: failing.length + 1 });
    // Every install runs version 1 again.
    expect(onVersion(await versions(), 1)).toHaveLength(INSTALLS);
    // A second evaluation (another control plane's) finds nothing to abort and tells no one twice.
    expect(await w.stack.controlPlane.rolloutEvaluator.evaluate()).toEqual([]);
    failures = failing.length + 1;
    const after = await metrics();
    expect(after).toContain(`platform_rollout_aborts_total{app="${w.appId}",by="platform"} 1`);
    expect(after).not.toContain('platform_rollout_percent{');
  });

  it('the author is told: a line in the app\'s log and a mail to the owner', async () => {
    const logs = await w.stack.v0(w.owner.apiKey).get(`/apps/${w.appId}/logs`);
    expect(logs.status).toBe(200);
    const line = logs.body.items.find((l: { message: string }) => l.message.startsWith('Rollout of version 2 aborted by the platform'));
    expect(line).toMatchObject({ level: 'warn', kind: 'lifecycle', version: 2 });
    await w.smtp.waitFor((mail) => mail.some((m) => m.raw.includes('Rollout of Notes version 2 aborted')));
    const mail = w.smtp.mail.find((m) => m.raw.includes('Rollout of Notes version 2 aborted'))!;
    expect(mail).toMatchObject({ from: 'platform@example.test', to: ['olive@example.test'] });
    expect(mail.raw).toContain(`failed ${failures} of 20`);
    expect(w.smtp.mail.filter((m) => m.raw.includes('Rollout of Notes version 2 aborted'))).toHaveLength(1);
  });

  it('after the abort new installs and deliveries get the version before, and a new version may be published', async () => {
    const before = w.seen.length;
    await w.insertCard(moved[0]!);
    expect(w.seen.slice(before)).toEqual([{ installId: moved[0], version: 1 }]);
    const consent = await w.stack.createWorkspace({ name: 'After' });
    expect((await consent.client.post(`/apps/${w.appId}/installs`, { version: 1 })).status).toBe(201);
    expect((await w.stack.v0(w.owner.apiKey).post(`/apps/${w.appId}/rollout/promote`)).status).toBe(409);
  });
});

describe('a promoted rollout', () => {
  it('moves every install', async () => {
    w.throwing.clear();
    w.stack.clock.advance(1_000);
    const res = await w.publish('v3', '?rollout=10');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The workspace that installed after the abort counts: ⌈10 % of 41⌉.
    expect((await status()).installs.moved).toBe(5);
    const promoted = await w.stack.v0(w.owner.apiKey).post(`/apps/${w.appId}/rollout/promote`);
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ status: 'promoted', percent: 100, version: 3 });
    expect(onVersion(await versions(), 3)).toHaveLength(INSTALLS);
    // The workspaces that installed meanwhile moved too.
    expect(promoted.body.installs.byVersion).toEqual([{ version: 3, installs: INSTALLS + 1 }]);
  });

  it('refuses a rollout of a preview and of a share out of range', async () => {
    const preview = await w.stack.v0(w.owner.apiKey).put(`/apps/${w.appId}/manifest?rollout=10`, { manifest: w.manifest('p'), target: 'preview' });
    expect(preview.body._tag).toBe('PlatformApiInvalidRequestError');
    for (const share of ['0', '100', 'ten']) {
      const res = await w.stack.v0(w.owner.apiKey).put(`/apps/${w.appId}/manifest?rollout=${share}`, { manifest: w.manifest('v9'), target: 'production' });
      expect(res.status).toBe(400);
      expect(res.body._tag).toBe('PlatformApiInvalidRequestError');
    }
  });
});

describe('request lines as a signal', () => {
  it('a version whose requests stop at the CPU limit is aborted on the lines the runtime nodes ship', async () => {
    w.stack.clock.advance(1_000);
    const res = await w.publish('v4', '?rollout=10');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    let n = 0;
    const line = (version: number, outcome: string) => ({
      at: new Date(w.stack.clock.now()).toISOString(), appId: w.appId, version, requestId: `req_${++n}`, deliveryId: null, installId: null,
      kind: 'route', level: 'request', status: outcome === 'ok' ? 'ok' : 'error', message: `GET /x ${outcome}`,
      request: { label: 'GET /x', outcome, httpStatus: outcome === 'ok' ? 200 : null, cpuMs: 1, wallMs: 1, outbound: 0 },
    });
    const ship = (lines: unknown[]) => w.stack.fetch('/internal/v1/logs', {
      method: 'POST', headers: { authorization: `Bearer ${w.stack.config.runtimeSecret}`, 'content-type': 'application/json' }, body: JSON.stringify({ node: 'node-a', lines }),
    });
    expect((await ship([...Array.from({ length: 30 }, () => line(3, 'ok')), ...Array.from({ length: 19 }, () => line(4, 'cpu_limit'))])).status).toBe(204);
    expect(await w.stack.controlPlane.rolloutEvaluator.evaluate()).toEqual([]);
    expect((await status()).signals).toMatchObject({ new: { outcomes: 19, failures: 19 }, old: { outcomes: 30, failures: 0 } });
    expect((await ship([line(4, 'cpu_limit')])).status).toBe(204);
    expect(await w.stack.controlPlane.rolloutEvaluator.evaluate()).toHaveLength(1);
    const s = await status();
    expect(s).toMatchObject({ version: 4, status: 'aborted', abortedBy: 'platform' });
    expect(s.reason).toContain('failed 20 of 20');
    expect(onVersion(await versions(), 3)).toHaveLength(INSTALLS);
  });
});

describe('the API document', () => {
  it('lists the rollout routes as ours, and the publish query', async () => {
    const doc = (await (await w.stack.fetch('/v0/openapi.json')).json()) as { paths: Record<string, Record<string, { summary: string; parameters?: Array<{ name: string }> }>> };
    expect(doc.paths['/apps/{app_id}/rollout']?.get?.summary).toContain('(ours)');
    for (const action of ['advance', 'promote', 'abort']) expect(doc.paths[`/apps/{app_id}/rollout/${action}`]?.post?.summary).toContain('(ours)');
    expect(doc.paths['/apps/{app_id}/manifest']?.put?.parameters?.map((p) => p.name)).toContain('rollout');
    expect(doc.paths['/apps/{app_id}/versions']?.post?.parameters?.map((p) => p.name)).toContain('rollout');
  });
});
