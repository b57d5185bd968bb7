// An app written with the SDK, bundled with esbuild as `platform deploy` does, runs on the runtime:
// its manifest is read from its code, a signed delivery reaches its block action (the SDK verifies
// the runtime's signature with PLATFORM_SIGNING_SECRET), and its route answers under /apps/{slug}.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedApp } from '@platform/runtime';
import { startRuntime, type TestRuntime } from './support/runtime.ts';

let rt: TestRuntime;
let app: ResolvedApp;
let source: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../fixtures/runtime/sdk-app.ts', import.meta.url))],
    bundle: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', conditions: ['source'], logLevel: 'silent',
  });
  source = result.outputFiles[0]!.text;
  rt = await startRuntime();
  app = await rt.deploy('hosted-counter', source);
}, 60_000);
afterAll(() => rt?.stop());

describe('an SDK app on the runtime', () => {
  it('computes its manifest in the runtime', async () => {
    const { manifest } = await rt.client.manifest({ sha256: app.sha256 }) as { manifest: { slug: string; hosting?: string; blocks: Array<{ type: string }>; egressHosts: string[] } };
    expect(manifest.slug).toBe('hosted-counter');
    expect(manifest.blocks.map((b) => b.type)).toEqual(['counter']);
    expect(manifest.egressHosts).toEqual(['api.allowed.test']);
  });

  it('answers a signed block.action delivery through the SDK\'s verification', async () => {
    const result = await rt.client.deliver(rt.delivery(app, {
      envelope: {
        id: 'dlv_sdk', type: 'block.action', timestamp: new Date().toISOString(), app: { id: app.appId, slug: app.slug, version: 1 },
        install: { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace' }, installToken: { token: 'platapp_x', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
        actor: { memberId: 'mem_1', name: 'Grace' }, locale: 'en', timeZone: 'UTC',
        data: { block: { id: 'blk_1', type: 'counter', props: { label: 'Clicks' }, state: { count: 41 }, revision: 1, version: 1 }, action: { name: 'increment', args: {} }, tallies: {}, invocationId: 'inv_1', interactionToken: 'platint_x' },
      },
    }));
    expect(result.outcome).toBe('ok');
    expect(result.status).toBe(200);
    expect(JSON.parse(result.text())).toMatchObject({ state: { count: 42 } });
  });

  it('serves its route under /apps/{slug}', async () => {
    const res = await rt.route('hosted-counter', '/hello/ada');
    expect(await res.json()).toEqual({ hello: 'ada' });
  });
});
