/**
 * Verified domains against a real DNS server on loopback (DNS_SERVERS points the control plane's
 * resolver at it): the TXT record to publish, verification when it is there and not before, a
 * resolver that fails, and a verified domain covering an MCP host in a manifest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.ts';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp, selfManifest } from './helpers.ts';

let dns: DnsServer;
let stack: Stack;
let ws: CreatedWorkspace;

beforeAll(async () => {
  dns = await startDnsServer();
  stack = await startStack({ env: { DNS_SERVERS: dns.address, RESERVED_DOMAINS: 'platform.test' } });
  ws = await stack.createWorkspace();
});
afterAll(async () => {
  await stack.stop();
  await dns.close();
});

describe('verified domains', () => {
  it('answers the TXT record to publish, verifies once it is published, and only then', async () => {
    const { app } = await createApp(ws.client);
    const added = await ws.client.post(`/apps/${app.id}/domains`, { domain: 'Example.COM' });
    expect(added.status).toBe(201);
    const { domain } = added.body;
    expect(domain).toMatchObject({ domain: 'example.com', verified: false, verifiedAt: null, record: { type: 'TXT', name: '_platform-verify.example.com' } });
    expect(domain.record.value).toMatch(/^platform-verify=[A-Za-z0-9_-]{32}$/);

    const early = await ws.client.post(`/apps/${app.id}/domains/example.com/verify`);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ _tag: 'PlatformApiConflictError', message: 'No TXT record at _platform-verify.example.com yet' });
    expect(dns.asked).toContain('_platform-verify.example.com');

    dns.setTxt('_platform-verify.example.com', ['platform-verify=someone-elses-token', 'v=spf1 -all']);
    const wrong = await ws.client.post(`/apps/${app.id}/domains/example.com/verify`);
    expect(wrong.status).toBe(409);

    dns.setTxt('_platform-verify.example.com', ['v=spf1 -all', domain.record.value]);
    const ok = await ws.client.post(`/apps/${app.id}/domains/example.com/verify`);
    expect(ok.status).toBe(200);
    expect(ok.body.domain).toMatchObject({ domain: 'example.com', verified: true, verifiedAt: new Date(stack.clock.now()).toISOString() });

    const again = await ws.client.post(`/apps/${app.id}/domains`, { domain: 'example.com' });
    expect(again.body.domain.record.value).toBe(domain.record.value);
    expect((await ws.client.get(`/apps/${app.id}/domains`)).body.items).toEqual([ok.body.domain]);
  });

  it('answers 503 when the resolver fails, and refuses public suffixes, IPs and the service\'s domains', async () => {
    const { app } = await createApp(ws.client);
    await ws.client.post(`/apps/${app.id}/domains`, { domain: 'broken.example.net' });
    dns.fail('_platform-verify.broken.example.net');
    const failed = await ws.client.post(`/apps/${app.id}/domains/broken.example.net/verify`);
    expect(failed.status).toBe(503);
    expect(failed.body._tag).toBe('PlatformApiServiceUnavailableError');

    for (const bad of ['co.uk', 'github.io', '127.0.0.1', 'localhost', 'apps.platform.test', 'platform.test']) {
      const res = await ws.client.post(`/apps/${app.id}/domains`, { domain: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body.issues[0].path).toEqual(['domain']);
    }
    expect((await ws.client.post(`/apps/${app.id}/domains/never-added.example.com/verify`)).status).toBe(404);
  });

  it('is needed by an MCP host (mcp-host-unverified until the domain is verified)', async () => {
    const { app } = await createApp(ws.client);
    const manifest = selfManifest(app.slug, { mcp: { url: 'https://mcp.tools.example.io/mcp', auth: 'platform' } });
    const refused = await stack.v0(ws.apiKey).put(`/apps/${app.id}/manifest`, { manifest, target: 'preview' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'mcp-host-unverified' });

    const { domain } = (await ws.client.post(`/apps/${app.id}/domains`, { domain: 'tools.example.io' })).body;
    dns.setTxt('_platform-verify.tools.example.io', [domain.record.value]);
    expect((await ws.client.post(`/apps/${app.id}/domains/tools.example.io/verify`)).status).toBe(200);
    expect((await stack.v0(ws.apiKey).put(`/apps/${app.id}/manifest`, { manifest, target: 'preview' })).status).toBe(200);

    expect((await ws.client.delete(`/apps/${app.id}/domains/tools.example.io`)).status).toBe(204);
    expect((await ws.client.get(`/apps/${app.id}/domains`)).body.items).toEqual([]);
  });
});
