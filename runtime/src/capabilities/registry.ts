/**
 * @module capabilities/registry
 * Every host capability offered to isolates, by name. The guest halves are listed in
 * runtime/src/guest/capabilities/registry.ts; CONTRIBUTING.md has the checklist for adding one.
 */
import { consoleCapability } from './console.ts';
import { cryptoCapability } from './crypto.ts';
import { fetchCapability } from './fetch.ts';
import { timersCapability } from './timers.ts';
import type { HostCapability, PostMethod, SyncMethod } from './types.ts';
import { urlCapability } from './url.ts';

export const HOST_CAPABILITIES: readonly HostCapability[] = [consoleCapability, timersCapability, cryptoCapability, urlCapability, fetchCapability];

const byName = new Map(HOST_CAPABILITIES.map((c) => [c.name, c]));

export function findSync(capability: unknown, method: unknown): SyncMethod | undefined {
  if (typeof capability !== 'string' || typeof method !== 'string') return undefined;
  const c = byName.get(capability);
  return c?.sync !== undefined && Object.hasOwn(c.sync, method) ? c.sync[method] : undefined;
}

export function findPost(capability: unknown, method: unknown): PostMethod | undefined {
  if (typeof capability !== 'string' || typeof method !== 'string') return undefined;
  const c = byName.get(capability);
  return c?.post !== undefined && Object.hasOwn(c.post, method) ? c.post[method] : undefined;
}
