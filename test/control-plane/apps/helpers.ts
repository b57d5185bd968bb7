/**
 * Shared pieces of the apps suites: manifests to sync, and apps, tokens and installs made through
 * the real endpoints (and, for deploy tokens, the real token service the CI exchange uses).
 */
import { expect } from 'vitest';
import type { ApiClient, CreatedWorkspace, Stack } from '../../helpers/stack.ts';

let counter = 0;
/** A slug no other test of the run uses. */
export const uniqueSlug = (base = 'app'): string => `${base}-${process.pid.toString(36)}-${(++counter).toString(36)}`;

/** A valid self-hosted manifest (blocks with a writable action, so `blocks:write`). */
export function selfManifest(slug: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schemaVersion: 1,
    name: 'Polls',
    slug,
    hosting: 'self',
    endpoint: { url: 'https://polls.example.com/platform' },
    scopes: ['blocks:write'],
    blocks: [{
      type: 'poll',
      title: 'Poll',
      props: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
      state: { type: 'object', properties: { votes: { type: 'integer', minimum: 0 } } },
      actions: [{ name: 'vote', hints: { readOnly: false, destructive: false, idempotent: false }, scopes: ['blocks:write'] }],
    }],
    ...overrides,
  };
}

export interface CreatedApp {
  app: { id: string; slug: string; name: string; hosting: 'self' | 'platform'; clientId: string };
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}

export async function createApp(client: ApiClient, input: { slug?: string; hosting?: 'self' | 'platform'; private?: boolean; name?: string } = {}): Promise<CreatedApp> {
  const hosting = input.hosting ?? 'self';
  const res = await client.post('/apps', {
    name: input.name ?? 'Polls',
    slug: input.slug ?? uniqueSlug(),
    hosting,
    ...(hosting === 'self' ? { endpoint: { url: 'https://polls.example.com/platform' } } : {}),
    ...(input.private === undefined ? {} : { private: input.private }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function deployToken(stack: Stack, appId: string, previewOnly: boolean): Promise<string> {
  return (await stack.controlPlane.tokens.mint('deploy', { appId, previewOnly, identityId: null })).token;
}

export async function agentToken(stack: Stack, apiKey: string): Promise<string> {
  const res = await stack.client(apiKey).post('/agent-builder-tokens');
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token;
}

/** Syncs a manifest as a member (or any tooling credential) and expects success. */
export async function sync(stack: Stack, credential: string, appId: string, manifest: Record<string, unknown>, target: 'preview' | 'production') {
  const res = await stack.v0(credential).put(`/apps/${appId}/manifest`, { manifest, target });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Installs the app's published version in `ws` (an owner), with `config` when given. */
export async function install(ws: CreatedWorkspace, appId: string, config?: Record<string, unknown>) {
  const consent = await ws.client.get(`/apps/${appId}/consent`);
  expect(consent.status, JSON.stringify(consent.body)).toBe(200);
  const res = await ws.client.post(`/apps/${appId}/installs`, { version: consent.body.consent.version, ...(config === undefined ? {} : { config }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.install;
}
