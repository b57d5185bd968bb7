/**
 * @module apps/installs/config
 * Install config: an object an admin fills in from the form the version's `installConfig` JSON
 * Schema describes. The whole config is sealed at rest (bound to its install); fields marked
 * `writeOnly: true` in the schema are secret: they are never shown back through the API, only
 * delivered decrypted in the envelope (`installConfigFor`).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { invalidRequest, type RequestIssue } from '@platform/sdk';
import type { Secrets } from '../../core/crypto/secrets.ts';
import type { InstallRow } from './store.ts';

export type InstallConfig = Record<string, unknown>;

const sealContext = (installId: string) => `install-config:${installId}`;

export function sealConfig(secrets: Secrets, installId: string, config: InstallConfig): string {
  return secrets.seal(JSON.stringify(config), sealContext(installId));
}

/**
 * The install's config, decrypted, secret fields included: for the delivery envelope only.
 * @example
 * const envelope = { …, install: { id, workspaceId, kind, ...(config ? { config } : {}) } };
 * const config = installConfigFor(secrets, install);
 */
export function installConfigFor(secrets: Secrets, install: Pick<InstallRow, 'id' | 'config_enc'>): InstallConfig | undefined {
  if (install.config_enc === null) return undefined;
  return JSON.parse(secrets.open(install.config_enc, sealContext(install.id))) as InstallConfig;
}

type Path = string[];

/**
 * Paths of the secret fields: properties marked `writeOnly: true`, found by following `properties`
 * from the root (combinators are not searched: a secret field is declared where the form shows it).
 */
export function secretFieldPaths(schema: unknown): Path[] {
  const out: Path[] = [];
  const stack: Array<[unknown, Path]> = [[schema, []]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const properties = (node as { properties?: unknown }).properties;
    if (properties === null || typeof properties !== 'object') continue;
    for (const [name, child] of Object.entries(properties)) {
      if (child !== null && typeof child === 'object' && (child as { writeOnly?: unknown }).writeOnly === true) out.push([...path, name]);
      else stack.push([child, [...path, name]]);
    }
  }
  return out.sort((a, b) => a.join('\u0000').localeCompare(b.join('\u0000')));
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The config as the API shows it: secret fields removed; `secretsSet` lists which of them hold a value. */
export function redactConfig(config: InstallConfig | undefined, secretPaths: Path[]): { config: InstallConfig | null; secretsSet: string[] } {
  if (config === undefined) return { config: null, secretsSet: [] };
  const copy = structuredClone(config);
  const secretsSet: string[] = [];
  for (const path of secretPaths) {
    let node: unknown = copy;
    for (const key of path.slice(0, -1)) node = isObject(node) ? node[key] : undefined;
    const last = path[path.length - 1]!;
    if (isObject(node) && Object.hasOwn(node, last)) {
      delete node[last];
      secretsSet.push(path.join('.'));
    }
  }
  return { config: copy, secretsSet };
}

/**
 * Checks a config against the version's validator; a problem answers 400 with one issue per ajv
 * error, each with its path under `config`. A version without `installConfig` takes no config.
 */
export function checkConfig(validator: ValidateFunction | null, config: InstallConfig | undefined): InstallConfig | undefined {
  if (validator === null) {
    if (config !== undefined && Object.keys(config).length > 0) {
      throw invalidRequest([{ path: ['config'], message: 'This app takes no install config' }]);
    }
    return undefined;
  }
  const value = config ?? {};
  if (validator(value)) return value;
  const issues: RequestIssue[] = (validator.errors ?? []).slice(0, 50).map((e) => {
    const path: Array<string | number> = ['config', ...e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))];
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    if (missing !== undefined) path.push(missing);
    return { path, message: e.message ?? 'is invalid', code: e.keyword };
  });
  throw invalidRequest(issues, 'The install config does not match the app\'s form');
}
