/**
 * @module runs/specs
 * Version specs (protocol/messages.ts): one per app version and env, with a number (`vid`) the
 * workers know it by, so a version's bundle path, env and secrets cross to a worker once rather
 * than with every request. Kept least recently used first out; a version whose env changes gets a
 * new spec.
 */
import type { VersionSpec } from '../protocol/messages.ts';

const MAX_SPECS = 10_000;

export interface SpecInput {
  appId: string;
  version: number;
  sha256: string;
  bundlePath: string;
  /** Where the version's source map is (or will be) on this node; null without one. */
  sourceMapPath: string | null;
  env: Record<string, string>;
  secretEnvKeys: readonly string[];
  /** Variables the platform adds to every app's env (sandbox-lib's ENV_KEYS), made only for a new spec. */
  platformEnv: () => Record<string, string>;
  /** What `platformEnv` depends on, as a string (part of the cache key). */
  platformKey: string;
}

export function createSpecs(max = MAX_SPECS) {
  const specs = new Map<string, VersionSpec>();
  let nextVid = 1;
  return {
    get(input: SpecInput): VersionSpec {
      const key = `${input.appId}@${input.version}:${input.sha256}`;
      // The bundle path follows from the sha256 on a node; the env and what the platform adds do not.
      const cacheKey = `${key}\0${input.sourceMapPath ?? ''}\0${JSON.stringify(input.env)}\0${input.secretEnvKeys.join(',')}\0${input.platformKey}`;
      const hit = specs.get(cacheKey);
      if (hit !== undefined && hit.bundlePath === input.bundlePath) {
        specs.delete(cacheKey);
        specs.set(cacheKey, hit);
        return hit;
      }
      const redact = input.secretEnvKeys.map((k) => input.env[k]).filter((v): v is string => typeof v === 'string');
      const env = { ...input.env, ...input.platformEnv() };
      const spec: VersionSpec = { vid: nextVid++, key, appId: input.appId, sha256: input.sha256, bundlePath: input.bundlePath, sourceMapPath: input.sourceMapPath, env, redact };
      specs.set(cacheKey, spec);
      if (specs.size > max) specs.delete(specs.keys().next().value as string);
      return spec;
    },
  };
}
