/**
 * @module native/location
 * Where the patched isolated-vm addon is built and looked for. The key covers everything the
 * binary depends on (the patch, the isolated-vm version it applies to, Node's module ABI and the
 * platform), so a changed patch or a new Node builds again while an unchanged one is reused.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The isolated-vm release the patch applies to (package.json pins it exactly). */
export const ISOLATED_VM_VERSION = '7.0.1';
export const PATCH_FILE = fileURLToPath(new URL('./isolated-vm-7.0.1-cpu-limit.patch', import.meta.url));
export const BUILD_ROOT = fileURLToPath(new URL('./.build/', import.meta.url));

export function buildKey(): string {
  return createHash('sha256')
    .update(readFileSync(PATCH_FILE))
    .update(`\0${ISOLATED_VM_VERSION}\0${process.versions.modules}\0${process.platform}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
}

/** The built addon for this Node and patch (it may not exist yet). */
export function addonPath(key: string = buildKey()): string {
  return `${BUILD_ROOT}${key}/isolated_vm.node`;
}

/**
 * The build shared by every clone on this machine (`$XDG_CACHE_HOME/platform/isolated-vm/<key>/`,
 * else `~/.cache/…`): a clone whose key matches copies it instead of compiling for minutes.
 */
export function cachedAddonPath(key: string = buildKey(), env: NodeJS.ProcessEnv = process.env): string {
  const root = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(root, 'platform', 'isolated-vm', key, 'isolated_vm.node');
}
