/**
 * A kill -9 of a control plane during storage commits (issue 22, item 6): commits run against one
 * control plane process, each writing two keys and adding 1 to a counter; the process is killed
 * with SIGKILL while they are in flight, and another control plane on the same database reads what
 * is there. No commit is there in part (both keys or neither, and the counter equals the commits
 * present), and every commit that was acknowledged (200) is there.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, freePort, type Fleet, type FleetProcess } from '../helpers/fleet-processes.ts';

const BASE = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const OPERATOR_TOKEN = randomBytes(24).toString('base64url');
const LANES = 8;

let admin: pg.Client;
let database: string;
let fleet: Fleet;

async function json(method: string, url: string, body: unknown, auth: string, status: number): Promise<any> {
  const res = await fetch(url, { method, headers: { authorization: auth, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const answer = res.status === 204 ? null : await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(status);
  return answer;
}

async function installToken(cp: FleetProcess): Promise<string> {
  const ws = await json('POST', `${cp.url}/client/v1/workspaces`, { name: 'Crash', owner: { name: 'Olive Owner' } }, `Bearer ${OPERATOR_TOKEN}`, 201);
  const key = `Bearer ${ws.apiKey}`;
  const endpoint = { url: 'https://keeper.example.com/platform' };
  const app = await json('POST', `${cp.url}/client/v1/apps`, { name: 'Keeper', slug: 'keeper', hosting: 'self', endpoint }, key, 201);
  const manifest = { schemaVersion: 1, name: 'Keeper', slug: 'keeper', hosting: 'self', endpoint, scopes: [], blocks: [] };
  await json('PUT', `${cp.url}/v0/apps/${app.app.id}/manifest`, { manifest, target: 'production' }, key, 200);
  const consent = await json('GET', `${cp.url}/client/v1/apps/${app.app.id}/consent`, undefined, key, 200);
  const installed = await json('POST', `${cp.url}/client/v1/apps/${app.app.id}/installs`, { version: consent.consent.version }, key, 201);
  const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
  return (await json('POST', `${cp.url}/v0/apps/installs/${installed.install.id}/access-tokens`, {}, basic, 201)).token as string;
}

beforeAll(async () => {
  database = `storage_crash_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  await admin.query(`create database "${database}"`);
  const url = new URL(BASE);
  url.pathname = `/${database}`;
  fleet = createFleet({
    shared: {
      DATABASE_URL: url.href, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `${database}:` } : {}),
      RUNTIME_SECRET: randomBytes(24).toString('base64url'), MASTER_KEY: randomBytes(32).toString('base64'), OPERATOR_TOKEN,
      RUNTIME_URL: `http://127.0.0.1:${await freePort()}`, NODE_ENV: 'test',
      // One issuer for both processes: the second verifies the install token the first minted.
      PUBLIC_URL: 'http://127.0.0.1:1',
    },
  });
}, 60_000);

afterAll(async () => {
  await fleet?.stopAll();
  await admin?.query(`drop database if exists "${database}" with (force)`).catch(() => undefined);
  await admin?.end();
});

describe('a control plane killed during commits', () => {
  it('leaves no partial commit and loses no acknowledged one', { timeout: 120_000 }, async () => {
    const first = await fleet.controlPlane('cp-1', {});
    const token = await installToken(first);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const lane = async (l: number) => {
      for (let i = 0; !killed; i++) {
        const id = `${l}-${i}`;
        sent++;
        try {
          const res = await fetch(`${first.url}/v0/storage/commit`, {
            method: 'POST', headers: auth,
            body: JSON.stringify({ checks: [{ key: `a/${id}`, versionstamp: null }], mutations: [{ type: 'set', key: `a/${id}`, value: i }, { type: 'set', key: `b/${id}`, value: i }, { type: 'sum', key: 'count', value: 1 }] }),
          });
          if (res.status === 200) acknowledged.push(id);
          await res.body?.cancel();
        } catch {
          return; // the process is gone: this commit's fate is whatever the database kept
        }
      }
    };
    const lanes = Array.from({ length: LANES }, (_, l) => lane(l));
    // Kill once commits are flowing: after 200 acknowledged (an event, not a sleep).
    while (acknowledged.length < 200) await new Promise((r) => setImmediate(r));
    process.kill(first.pid, 'SIGKILL');
    killed = true;
    await first.exited;
    await Promise.all(lanes);

    const second = await fleet.controlPlane('cp-2', {});
    const read = async (prefix: string) => {
      const keys: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { entries: Array<{ key: string }>; cursor: string | null } = await json('POST', `${second.url}/v0/storage/list`, { prefix, limit: 1000, ...(cursor ? { cursor } : {}) }, `Bearer ${token}`, 200);
        keys.push(...page.entries.map((e) => e.key.slice(prefix.length)));
        cursor = page.cursor;
      } while (cursor !== null);
      return keys.sort();
    };
    const [a, b] = [await read('a/'), await read('b/')];
    expect(a, 'each commit wrote both keys or neither').toEqual(b);
    const count = (await json('POST', `${second.url}/v0/storage/get`, { keys: ['count'] }, `Bearer ${token}`, 200)).entries[0].value;
    expect(count, 'the counter counts exactly the commits present').toBe(a.length);
    const present = new Set(a);
    expect(acknowledged.filter((id) => !present.has(id)), 'acknowledged commits are all there').toEqual([]);
    expect(a.length).toBeGreaterThanOrEqual(acknowledged.length);
    expect(a.length).toBeLessThanOrEqual(sent);
    expect(sent, 'commits were in flight when the process died').toBeGreaterThan(acknowledged.length);
  });
});
