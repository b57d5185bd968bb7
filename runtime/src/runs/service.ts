/**
 * @module runs/service
 * Runs one request of an app version on this node: makes sure the bundle is here (bundle store),
 * names the version spec, builds the job and the egress context (which stays in the supervisor),
 * and hands both to the supervisor. Deliveries, manifest reads and hosted ingress come through here.
 *
 * The version's source map is fetched beside its bundle (a cold version waits for both), but it
 * never fails or holds up a request: a map that cannot be had leaves the version's stacks as the
 * bundle names them, and is asked for again a minute later at the earliest.
 */
import { randomBytes } from 'node:crypto';
import { ENV_KEYS, LIMITS } from '@platform/sdk';
import type { RuntimeConfig } from '../config/config.ts';
import type { Logger } from 'pino';
import type { BundleStore, SourceMapStore } from '../bundles/store.ts';
import { normalizeHost } from '../egress/hosts.ts';
import type { VersionSpec } from '../protocol/messages.ts';
import type { RequestKind } from '../shared/bridge.ts';
import type { ManifestResult, RunResult, Supervisor } from '../supervisor/supervisor.ts';
import { createSpecs } from './specs.ts';

import type { RunInput } from '../protocol/run-input.ts';

export type { RunInput };


interface Derived {
  spec: VersionSpec;
  egressHosts: readonly string[];
  platformOrigin: string | null;
}

const MAP_RETRY_MS = 60_000;

/** `make(key)`, kept by key; the cache is emptied when it holds `max`. */
function memo<T>(max: number, make: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      if (kept.size >= max) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

export function createRunService(deps: { config: RuntimeConfig; supervisor: Supervisor; bundles: BundleStore; sourceMaps: SourceMapStore; now: () => number; logger?: Logger }) {
  const prefix = randomBytes(4).toString('hex');
  let seq = 0;
  const { config } = deps;
  const specs = createSpecs();
  // Normalized allow-lists by their raw text: the same few lists come with every request.
  const hostList = memo(10_000, (key) => (key === '' ? [] : key.split(',').map(normalizeHost)));
  const normalized = (hosts: readonly string[]): readonly string[] => hostList(hosts.join(','));
  const originOf = memo(1_000, (baseUrl) => new URL(baseUrl).origin);
  // Maps the control plane did not give us lately: not asked for on every request.
  const mapFailedAt = new Map<string, number>();
  const fetchMap = async (sha: string): Promise<void> => {
    const failed = mapFailedAt.get(sha);
    if (failed !== undefined && deps.now() - failed < MAP_RETRY_MS) return;
    try {
      await deps.sourceMaps.ensure(sha);
      mapFailedAt.delete(sha);
    } catch (err) {
      if (mapFailedAt.size >= 10_000) mapFailedAt.clear();
      mapFailedAt.set(sha, deps.now());
      deps.logger?.warn({ err, sourceMap: sha }, 'could not get a source map; its version\'s stacks stay unmapped');
    }
  };
  /** The map's path when the version has one; unless it is here, fetched (awaited only by cold versions). */
  const mapOf = (sha: string | null): { path: string | null; arriving: Promise<void> | null } => {
    if (sha === null) return { path: null, arriving: null };
    return { path: deps.sourceMaps.pathOf(sha), arriving: deps.sourceMaps.known(sha) === null ? fetchMap(sha) : null };
  };

  const bySource = new WeakMap<object, Derived>();
  const derive = (input: RunInput, bundlePath: string, sourceMapPath: string | null): Derived => {
    const known = input.source === undefined ? undefined : bySource.get(input.source);
    if (known !== undefined && known.spec.bundlePath === bundlePath && known.spec.sourceMapPath === sourceMapPath) return known;
    // The variables every app gets from the platform (sandbox-lib's ENV_KEYS, read by its SDK).
    const baseUrl = input.baseUrl;
    const platformEnv = (): Record<string, string> => (baseUrl === null ? {} : { [ENV_KEYS.apiUrl]: baseUrl });
    const derived: Derived = {
      spec: specs.get({
        appId: input.app.id, version: input.app.version, sha256: input.sha256, bundlePath, sourceMapPath, env: input.env, secretEnvKeys: input.secretEnvKeys, platformEnv, platformKey: baseUrl ?? '',
      }),
      egressHosts: normalized(input.egressHosts),
      platformOrigin: input.baseUrl === null ? null : originOf(input.baseUrl),
    };
    if (input.source !== undefined) bySource.set(input.source, derived);
    return derived;
  };

  const submit = (input: RunInput, requestId: string, bundlePath: string, sourceMapPath: string | null): Promise<RunResult> => {
    const { cpuMs, deadlineMs } = budgets(input.kind);
    const { spec, egressHosts, platformOrigin } = derive(input, bundlePath, sourceMapPath);
    return deps.supervisor.run({
      spec,
      job: {
        id: requestId, vid: spec.vid, kind: input.kind, cpuBudgetMs: cpuMs, deadlineMs, maxResponseBytes: input.maxResponseBytes,
        method: input.request.method, url: input.request.url, headers: input.request.headers, deliveryId: input.deliveryId,
      },
      body: input.request.body,
      egress: { appId: input.app.id, egressHosts, platformOrigin, installToken: input.installToken, deadlineAt: deps.now() + deadlineMs, sent: 0 },
      meta: { appId: input.app.id, version: input.app.version, deliveryId: input.deliveryId, installId: input.installId, kind: input.kind, label: input.label, traceparent: input.traceparent ?? null },
    });
  };

  const BUDGETS: Readonly<Record<RequestKind, { cpuMs: number; deadlineMs: number }>> = {
    interactive: { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.actions.interactiveWaitMs },
    command: { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.actions.invocationWaitMs },
    lifecycle: { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.deliveries.lifecycleAckMs },
    mcp: { cpuMs: config.cpuMs.mcp, deadlineMs: config.deadlinesMs.mcp },
    route: { cpuMs: config.cpuMs.request, deadlineMs: config.deadlinesMs.route },
  };
  const budgets = (kind: RequestKind): { cpuMs: number; deadlineMs: number } => BUDGETS[kind];

  return {
    budgets,
    /** The spec of an app version with its bundle here (hand-off: a worker runs its requests itself). */
    async prepare(input: Pick<RunInput, 'app' | 'sha256' | 'sourceMapSha256' | 'env' | 'secretEnvKeys' | 'egressHosts' | 'baseUrl' | 'source'>): Promise<Derived> {
      const map = mapOf(input.sourceMapSha256);
      const [bundlePath] = await Promise.all([deps.bundles.known(input.sha256) ?? deps.bundles.ensure(input.sha256), map.arriving]);
      return derive(input as RunInput, bundlePath, map.path);
    },
    /** A request id prefix unique on this node (workers add their own part on handed connections). */
    idPrefix: prefix,
    /** A request id for logs and responses: unique on this node. */
    nextRequestId(): string {
      return `req_${prefix}${(++seq).toString(36)}`;
    },
    /** Evaluates a bundle in a fresh isolate and reads the manifest its code computes. */
    async manifest(sha256: string, cpuMs: number, requestId: string, sourceMapSha256: string | null = null): Promise<ManifestResult> {
      const map = mapOf(sourceMapSha256);
      const [bundlePath] = await Promise.all([deps.bundles.ensure(sha256), map.arriving]);
      const spec = specs.get({ appId: '_manifest', version: 0, sha256, bundlePath, sourceMapPath: map.path, env: {}, secretEnvKeys: [], platformEnv: () => ({}), platformKey: '' });
      return deps.supervisor.manifest({ spec, job: { id: requestId, vid: spec.vid, cpuBudgetMs: cpuMs, deadlineMs: cpuMs * 20 + 5_000 } });
    },
    run(input: RunInput, requestId: string): Promise<RunResult> {
      // A bundle in memory needs no await (the hot path); others are fetched or read first.
      const bundlePath = deps.bundles.known(input.sha256);
      const map = mapOf(input.sourceMapSha256);
      if (bundlePath !== null) return submit(input, requestId, bundlePath, map.path);
      return Promise.all([deps.bundles.ensure(input.sha256), map.arriving]).then(([path]) => submit(input, requestId, path, map.path));
    },
  };
}

export type RunService = ReturnType<typeof createRunService>;
