/**
 * @module ingress/http-directory
 * AppDirectory backed by the control plane: `GET {CONTROL_PLANE_URL}/internal/v1/apps/{slug}/production`
 * with the shared secret answers the app's latest production version (200, body as ResolvedApp)
 * or 404. Answers, found or not, are cached for `ttlMs`.
 */
import { PlatformError } from '@platform/sdk';
import { z } from 'zod';
import type { AppDirectory, ResolvedApp } from './directory.ts';

const ResolvedAppSchema = z.object({
  appId: z.string().min(1),
  slug: z.string().min(1),
  version: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sourceMapSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable().default(null),
  env: z.record(z.string(), z.string()).default({}),
  secretEnvKeys: z.array(z.string()).default([]),
  egressHosts: z.array(z.string()).default([]),
  baseUrl: z.url().nullable().default(null),
});

export function createHttpAppDirectory(deps: { controlPlaneUrl: string; secret: string; ttlMs: number; now: () => number; fetch?: typeof fetch }): AppDirectory {
  const cache = new Map<string, { at: number; app: ResolvedApp | null }>();
  const doFetch = deps.fetch ?? fetch;
  return {
    cached(slug) {
      const hit = cache.get(slug);
      return hit !== undefined && deps.now() - hit.at < deps.ttlMs ? hit.app : undefined;
    },
    async resolve(slug) {
      const hit = cache.get(slug);
      if (hit !== undefined && deps.now() - hit.at < deps.ttlMs) return hit.app;
      let res: Response;
      try {
        res = await doFetch(`${deps.controlPlaneUrl}/internal/v1/apps/${encodeURIComponent(slug)}/production`, {
          headers: { authorization: `Bearer ${deps.secret}` },
          signal: AbortSignal.timeout(5_000),
        });
      } catch {
        throw new PlatformError('PlatformApiServiceUnavailableError', 'The control plane could not be reached');
      }
      let app: ResolvedApp | null = null;
      if (res.ok) {
        const parsed = ResolvedAppSchema.safeParse(await res.json().catch(() => null));
        if (!parsed.success) throw new PlatformError('PlatformApiServiceUnavailableError', 'The control plane answered an unexpected app record');
        app = parsed.data;
      } else if (res.status !== 404) {
        throw new PlatformError('PlatformApiServiceUnavailableError', `The control plane answered ${res.status}`);
      }
      cache.set(slug, { at: deps.now(), app });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
      return app;
    },
  };
}
