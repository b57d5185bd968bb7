/**
 * @module apps/operator-metrics/service
 * What the operator page shows of each app of the workspace, read from the processes' own metrics:
 * this control plane's prom-client registry (lifecycle delivery outcomes, labelled by app slug) and
 * every runtime node's `/metrics` (guest CPU per request, requests by outcome, egress by host,
 * blocked egress, cold starts and quarantines, labelled by app id; worker restarts per node). The
 * figures are counters since each process started, summed over nodes; a node that does not answer
 * is listed as unreachable and counts for nothing. Only workspace owners and admins may read them.
 */
import type { Registry } from 'prom-client';
import { requireAdmin, type Actor } from '../../core/auth/actor.ts';
import type { RuntimeNodes } from '../../core/runtime-node/nodes.ts';
import { histogramQuantile, parseSamples, type Sample } from './prometheus-text.ts';
import type { AppMetrics, OperatorMetrics } from './schemas.ts';

export interface OperatorMetricsService {
  appsMetrics(actor: Actor): Promise<OperatorMetrics>;
}

export interface OperatorMetricsDeps {
  registry: Registry;
  runtimeNodes: Pick<RuntimeNodes, 'directory' | 'client'>;
  /** The workspace's apps (id, slug, name). */
  listApps(workspaceId: string): Promise<Array<{ id: string; slug: string; name: string }>>;
  /** How long a node may take to answer (default 2000 ms). */
  nodeTimeoutMs?: number;
}

const RUNTIME_SERIES = new Set([
  'runtime_request_cpu_seconds_bucket', 'runtime_requests_total', 'runtime_egress_requests_total', 'runtime_egress_blocked_total',
  'runtime_cold_starts_total', 'runtime_quarantines_total', 'runtime_worker_restarts_total',
]);

const add = (record: Record<string, number>, key: string, n: number) => { record[key] = (record[key] ?? 0) + n; };

function emptyApp(app: { id: string; slug: string; name: string }): AppMetrics & { buckets: Map<number, number> } {
  return {
    appId: app.id, slug: app.slug, name: app.name, cpu: { p50Ms: null, p99Ms: null }, requests: {}, egress: {}, blocked: {},
    coldStarts: 0, quarantines: 0, lifecycle: {}, buckets: new Map(),
  };
}

/** Adds one runtime sample to the app it is labelled with. */
function addRuntime(app: ReturnType<typeof emptyApp>, s: Sample): void {
  switch (s.name) {
    case 'runtime_request_cpu_seconds_bucket': {
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      app.buckets.set(le, (app.buckets.get(le) ?? 0) + s.value);
      break;
    }
    case 'runtime_requests_total': add(app.requests, s.labels.outcome ?? 'unknown', s.value); break;
    case 'runtime_egress_requests_total': add(app.egress, s.labels.host ?? '', s.value); break;
    case 'runtime_egress_blocked_total': add(app.blocked, s.labels.host ?? '', s.value); break;
    case 'runtime_cold_starts_total': app.coldStarts += s.value; break;
    case 'runtime_quarantines_total': app.quarantines += s.value; break;
  }
}

/**
 * @example
 * const operator = createOperatorMetricsService({ registry, runtimeNodes, listApps });
 * const { apps, nodes } = await operator.appsMetrics(actor);
 */
export function createOperatorMetricsService(deps: OperatorMetricsDeps): OperatorMetricsService {
  async function readNode(url: string, node: Parameters<RuntimeNodes['client']>[0]): Promise<{ url: string; samples: Sample[] | null }> {
    try {
      const client = await deps.runtimeNodes.client(node);
      return { url, samples: parseSamples(await client.metrics({ signal: AbortSignal.timeout(deps.nodeTimeoutMs ?? 2000) }), RUNTIME_SERIES) };
    } catch {
      return { url, samples: null };
    }
  }

  return {
    async appsMetrics(actor) {
      requireAdmin(actor, 'read the apps\' metrics');
      const list = await deps.listApps(actor.workspaceId);
      const byId = new Map(list.map((a) => [a.id, emptyApp(a)]));
      const bySlug = new Map([...byId.values()].map((a) => [a.slug, a]));
      const nodes = await Promise.all(deps.runtimeNodes.directory.nodes().map((n) => readNode(n.url, n)));
      for (const node of nodes) {
        for (const s of node.samples ?? []) {
          const app = byId.get(s.labels.app ?? '');
          if (app !== undefined) addRuntime(app, s);
        }
      }
      for (const s of parseSamples(await deps.registry.metrics(), new Set(['platform_lifecycle_attempts_total']))) {
        const app = bySlug.get(s.labels.app ?? '');
        if (app !== undefined) add(app.lifecycle, s.labels.outcome ?? 'unknown', s.value);
      }
      const apps = [...byId.values()].map(({ buckets, ...app }) => {
        const p50 = histogramQuantile(0.5, buckets);
        const p99 = histogramQuantile(0.99, buckets);
        return { ...app, cpu: { p50Ms: p50 === null ? null : p50 * 1000, p99Ms: p99 === null ? null : p99 * 1000 } };
      });
      return {
        apps,
        nodes: nodes.map((n) => {
          const restarts: Record<string, number> = {};
          for (const s of n.samples ?? []) if (s.name === 'runtime_worker_restarts_total') add(restarts, s.labels.reason ?? 'unknown', s.value);
          return { url: n.url, reachable: n.samples !== null, workerRestarts: restarts };
        }),
      };
    },
  };
}
