/**
 * @module deliveries/targets/runtime
 * Hosted apps' deliveries go to a runtime node's internal API (`POST /internal/v1/deliveries`,
 * through the runtime's own client), as the pipeline signed them: hosted apps never handle install
 * tokens (the spec), so the pipeline leaves the token out of the signed envelope and it travels
 * apart (the node keeps it and adds it to the app's own `/v0` calls); with them the version's
 * bundle, environment and outbound hosts. The node never receives a signing secret. It calls the
 * app's `fetch` at `/platform`; its answer passes through.
 *
 * Which node: the placement's order for the app version (`core/runtime-node/placement.ts`). A node
 * that cannot be reached, or that refuses the delivery before reading it (draining, no worker
 * ready: a 503 without an outcome; a bundle it could not get: a 404), never ran the app, so the next node is tried, up to three, all
 * within the delivery's deadline. A node lost while the delivery was in flight may have run the
 * app: that is not retried here (a lifecycle delivery is retried by the outbox, and identified by
 * its `webhook-id`; an interactive one fails, tagged). No node, or a version without an uploaded
 * bundle, is `unavailable` (lifecycle deliveries wait and retry); a guest over its CPU budget or
 * deadline failed the delivery.
 *
 * Version rows never change once written (app_versions has no update), so what a delivery needs of
 * one (bundle, target, outbound hosts) is read once per process and kept (least recently used
 * dropped first); a version not found is not kept. Environment values can change at any time and
 * are read for every delivery.
 */
import type { RuntimeClient, RuntimeDeliveryKind, RuntimeDeliveryRequest } from '@platform/runtime';
import type { FleetNode } from '@platform/runtime/fleet';
import type { Db } from '../../core/db/db.ts';
import type { Placement } from '../../core/runtime-node/placement.ts';
import { neverRan, NoRuntimeNodeError, tryNodes } from '../../core/runtime-node/try-nodes.ts';
import { findVersion, type VersionRow } from '../../apps/versions/store.ts';
import type { DeliveryOutcome, DeliveryTarget, OutgoingDelivery } from './target.ts';

/** Interactive types answered within 30 s instead of 5 (runtime kind `command`). */
const INVOCATIONS = new Set(['command.run', 'messageAction.run']);

export interface RuntimeTargetDeps {
  db: Db;
  /** The nodes to try for an app version, in order, and the count of requests on each. */
  placement: Placement;
  /** A client of the node, created on first use (its module is only loaded when a hosted app gets a delivery). */
  client(node: FleetNode): Promise<Pick<RuntimeClient, 'deliver'>>;
  /** `{base_url}`: the guest's `/v0` calls go there, with the install token added by the runtime. */
  baseUrl: string;
  /** Environment values of the app for a target, decrypted, with the keys that are secret. */
  environmentFor(appId: string, target: 'preview' | 'production'): Promise<{ env: Record<string, string>; secretEnvKeys: string[] }>;
  /** Versions kept in memory (default 1000). */
  maxVersions?: number;
}

type Hosted = Pick<VersionRow, 'bundle_sha256' | 'source_map_sha256' | 'target'> & { egressHosts: string[] };

const unavailable = (message: string, started: number): DeliveryOutcome =>
  ({ ok: false, failure: 'unavailable', message, durationMs: Math.round(performance.now() - started) });

function kindOf(d: OutgoingDelivery): RuntimeDeliveryKind {
  if (d.deliveryClass === 'lifecycle') return 'lifecycle';
  return INVOCATIONS.has(d.type) ? 'command' : 'interactive';
}

/**
 * @example
 * const hosted = createRuntimeTarget({ db, placement, client: async (node) => createRuntimeClient({ url: node.url, secret }), baseUrl, environmentFor });
 */
export function createRuntimeTarget(deps: RuntimeTargetDeps): DeliveryTarget {
  const maxVersions = deps.maxVersions ?? 1000;
  const versions = new Map<string, Hosted>();
  const versionOf = async (appId: string, number: number): Promise<Hosted | undefined> => {
    const key = `${appId}@${number}`;
    let hit = versions.get(key);
    if (hit !== undefined) {
      versions.delete(key);
    } else {
      const row = await findVersion(deps.db, appId, number);
      if (row === undefined) return undefined;
      hit = { bundle_sha256: row.bundle_sha256, source_map_sha256: row.source_map_sha256 ?? null, target: row.target, egressHosts: [...(row.manifest.egressHosts ?? [])] };
    }
    versions.set(key, hit);
    while (versions.size > maxVersions) versions.delete(versions.keys().next().value!);
    return hit;
  };

  return {
    async send(d) {
      const started = performance.now();
      const version = await versionOf(d.app.id, d.app.version);
      if (version?.bundle_sha256 == null) return unavailable(`version ${d.app.version} of the app has no uploaded bundle`, started);
      // The deadline is a timer cleared with the answer, not `AbortSignal.timeout`, which fires
      // after every delivery (an abort event and a stacked DOMException each; deliveries/outbound/post-json.ts).
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new DOMException(`no answer within ${d.timeoutMs} ms`, 'TimeoutError')), d.timeoutMs);
      try {
        const signal = deadline.signal;
        const request: RuntimeDeliveryRequest = {
          app: { id: d.app.id, slug: d.app.slug, version: d.app.version },
          // With its source map, the node's stacks of this version name the author's files.
          bundle: version.source_map_sha256 == null ? { sha256: version.bundle_sha256 } : { sha256: version.bundle_sha256, sourceMapSha256: version.source_map_sha256 },
          ...(await deps.environmentFor(d.app.id, version.target)),
          target: version.target,
          egressHosts: version.egressHosts,
          baseUrl: deps.baseUrl,
          ...(d.installToken == null ? {} : { installToken: d.installToken }),
          kind: kindOf(d),
          headers: d.headers,
          body: d.body,
        };
        const result = await tryNodes(deps.placement, `${d.app.id}@${d.app.version}`, signal, async (node) => (await deps.client(node)).deliver(request, { signal }));
        const durationMs = Math.round(performance.now() - started);
        if (result.outcome === 'ok') {
          if (result.body.byteLength > d.maxResponseBytes) {
            return { ok: false, failure: 'too-large', status: result.status, message: `response body is over ${d.maxResponseBytes} bytes`, durationMs };
          }
          return { ok: true, status: result.status, body: result.body, durationMs };
        }
        const message = `${result.outcome}: ${result.error?.message ?? `the runtime answered ${result.status}`}`.slice(0, 500);
        return { ok: false, failure: result.outcome === 'deadline' ? 'timeout' : 'app-error', status: result.status, message, durationMs };
      } catch (err) {
        if ((err as Error).name === 'TimeoutError') return { ok: false, failure: 'timeout', message: `no answer within ${d.timeoutMs} ms`, durationMs: Math.round(performance.now() - started) };
        const what = neverRan(err) || err instanceof NoRuntimeNodeError ? 'no runtime node could take the delivery'
          : typeof (err as { status?: unknown }).status === 'number' ? `the runtime node refused the delivery (${(err as { status: number }).status})`
            : 'the runtime node was lost with the delivery in flight';
        return unavailable(`${what}: ${(err as Error).message}`.slice(0, 500), started);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
