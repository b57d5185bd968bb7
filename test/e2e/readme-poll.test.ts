/**
 * The README's storage example is real (issue 22, "the sample apps show storage in use"): the poll
 * block of README.md's "Storage: data an app keeps" equals test/fixtures/apps/readme-poll.ts, and
 * that app, served by the SDK's node server on loopback, counts each member's vote once through
 * `ctx.storage` against a real control plane (real Postgres when DATABASE_URL is set): a second
 * vote by the same member changes nothing, another member's vote counts, and the storage it kept
 * is what the README says (`votes/<block>/<member>`, `totals/<block>`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { click } from '../control-plane/blocks/setup.ts';
import { startReadmePoll, type ServedPoll } from '../fixtures/apps/readme-poll.ts';
import { freePort } from '../helpers/npm-start.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../helpers/stack.ts';

const between = (text: string, start: string, end: string) => {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  return from < 0 || to < 0 ? '' : text.slice(from + start.length, to).trim();
};

let stack: Stack;
let ws: CreatedWorkspace;
let served: ServedPoll;
let appId: string;
let installToken: string;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  stack = await startStack({ env: { PORT: String(port), PUBLIC_URL: url } });
  served = await startReadmePoll(() => stack.clock.now());
  ws = await stack.createWorkspace();
  const created = await ws.client.post('/apps', { name: 'Poll', slug: 'readme-poll', hosting: 'self', endpoint: { url: served.endpoint } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  appId = created.body.app.id;
  served.configure({ signingSecret: created.body.signingSecret, apiUrl: url });
  const synced = await stack.v0(ws.apiKey).put(`/apps/${appId}/manifest`, { manifest: served.app.manifest, target: 'production' });
  expect(synced.status, JSON.stringify(synced.body)).toBe(200);
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  const installed = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  const basic = Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64');
  const minted = await stack.v0().request('POST', `/apps/installs/${installed.body.install.id}/access-tokens`, { body: {}, headers: { authorization: `Basic ${basic}` } });
  installToken = minted.body.token as string;
}, 90_000);

afterAll(async () => {
  await served?.close().catch(() => undefined);
  await stack?.stop();
});

describe('the README storage example', () => {
  it('is the fixture\'s poll block', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = between(readme, '## Storage: data an app keeps', '## ');
    const block = between(section, '```ts\n', '```');
    const fixture = between(readFileSync(new URL('../fixtures/apps/readme-poll.ts', import.meta.url), 'utf8'), '// README block: begin', '// README block: end');
    expect(block).not.toBe('');
    expect(fixture).toBe(block);
  });

  it('counts each member\'s vote once, in the app\'s storage', async () => {
    const circle = await ws.client.post('/circles', { name: 'Polls', visibility: 'public', chat: true });
    const inserted = await ws.client.post('/blocks', { appId, type: 'poll', props: { question: 'Lunch at noon?' }, target: { circleId: circle.body.circle.id } });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(201);
    const blockId = (inserted.body.block?.id ?? inserted.body.id) as string;
    const other = await stack.addMember(ws.apiKey, { name: 'Otto Other', role: 'member' });

    expect((await click(ws.client, blockId, 'Vote')).outcome).toBe('applied');
    expect((await click(ws.client, blockId, 'Vote')).outcome, 'a second vote is answered, and counts nothing').toBe('applied');
    expect((await click(other.client, blockId, 'Vote')).outcome).toBe('applied');

    const api = stack.v0(installToken);
    const card = await api.get(`/blocks/${blockId}`);
    expect(card.body.state).toEqual({ votes: 2 });
    const kept = await api.post('/storage/list', { prefix: `votes/${blockId}/` });
    expect(kept.body.entries.map((e: { key: string; value: unknown }) => [e.key, e.value]).sort()).toEqual(
      [[`votes/${blockId}/${other.member.id}`, true], [`votes/${blockId}/${ws.owner.id}`, true]].sort());
    expect((await api.post('/storage/get', { keys: [`totals/${blockId}`] })).body.entries[0].value).toBe(2);
  });
});
