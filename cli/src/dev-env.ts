/**
 * @module cli/dev-env
 * The environment a hosted app gets under `platform dev`: the preview variables of the
 * development app as the service lists them, then `.dev.vars` in the project (dotenv lines,
 * like wrangler's), whose values win. The service never reveals a secret value, so a secret
 * variable has a value locally only from `.dev.vars`; its values count as secret (redacted in the
 * app's log lines) either way.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import type { ServiceClient } from './service.ts';

export const DEV_VARS_FILE = '.dev.vars';

export interface DevEnvironment {
  env: Record<string, string>;
  secretEnvKeys: string[];
  /** Secret variables of the service without a local value (`.dev.vars` gives them one). */
  missing: string[];
}

async function readDevVars(cwd: string): Promise<Record<string, string>> {
  try {
    return parseEnv(await readFile(join(cwd, DEV_VARS_FILE), 'utf8')) as Record<string, string>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
}

/**
 * @example const { env, secretEnvKeys } = await devEnvironment(service, appId, process.cwd());
 */
export async function devEnvironment(service: Pick<ServiceClient, 'listEnv'>, appId: string, cwd: string): Promise<DevEnvironment> {
  const { items } = await service.listEnv(appId, 'preview');
  const local = await readDevVars(cwd);
  const env: Record<string, string> = {};
  for (const item of items) if (!item.secret && item.value !== undefined) env[item.key] = item.value;
  Object.assign(env, local);
  const secret = new Set([...items.filter((i) => i.secret).map((i) => i.key), ...Object.keys(local)]);
  return {
    env,
    secretEnvKeys: [...secret].filter((key) => key in env),
    missing: items.filter((i) => i.secret && !(i.key in local)).map((i) => i.key),
  };
}
