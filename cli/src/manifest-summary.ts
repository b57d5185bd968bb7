/**
 * @module cli/manifest-summary
 * The few lines `platform build` and `platform deploy` print about an app's computed manifest:
 * who it is, where it runs, what it defines and what it may reach.
 */
import type { ManifestError } from '@platform/sdk';
import { formatPath } from './output.ts';

const list = (values: readonly string[]) => (values.length === 0 ? '(none)' : values.join(', '));
const strings = (value: unknown, key: string): string[] =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : String((item as Record<string, unknown>)?.[key] ?? '?'))) : [];

/**
 * @example summarizeManifest({ name: 'Hello', slug: 'hello', hosting: 'platform', blocks: [{ type: 'counter' }] })
 */
export function summarizeManifest(manifest: Record<string, unknown>): string[] {
  const hosting = manifest.hosting === 'self' ? 'self' : 'platform';
  const endpoint = (manifest.endpoint as { url?: unknown } | undefined)?.url;
  return [
    `  app        ${String(manifest.name)} (${String(manifest.slug)})`,
    `  hosting    ${hosting === 'self' ? `self-hosted at ${typeof endpoint === 'string' ? endpoint : '(no endpoint)'}` : 'platform (runs on runtime nodes)'}`,
    `  blocks     ${list(strings(manifest.blocks, 'type'))}`,
    `  commands   ${list(strings(manifest.commands, 'name').map((name) => `/${name}`))}`,
    `  scopes     ${list(strings(manifest.scopes, ''))}`,
    `  egress     ${list(strings(manifest.egressHosts, ''))}`,
  ];
}

/** One line for a manifest problem, as the service would answer it. */
export function describeManifestError(error: ManifestError): string {
  return `${error._tag} (${error.reason}): ${error.message} (at ${formatPath(error.path)})`;
}
