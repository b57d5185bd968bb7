/**
 * @module metrics
 * Operator metrics of one runtime node, in its own prom-client registry (the control plane may run
 * in the same process in tests). Label values are bounded: app ids, fixed kinds, outcomes and
 * reasons, and egress hosts from the app's allow-list (anything else is counted as `_other`).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type EgressBlockReason = 'not-allowed' | 'scheme' | 'userinfo' | 'ip-literal' | 'address' | 'too-many-requests' | 'too-many-redirects' | 'response-too-large' | 'invalid-url';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'runtime_node_' });
  const registers = [registry];
  return {
    registry,
    requestCpu: new Histogram({
      name: 'runtime_request_cpu_seconds', help: 'Guest CPU time per request, by app and kind (interactive, command, lifecycle, route, mcp)',
      labelNames: ['app', 'kind'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.2, 0.5, 1], registers,
    }),
    requests: new Counter({ name: 'runtime_requests_total', help: 'Requests by app, kind and outcome (ok, error, cpu_limit, memory_limit, deadline, crashed)', labelNames: ['app', 'kind', 'outcome'], registers }),
    egressRequests: new Counter({ name: 'runtime_egress_requests_total', help: 'Outbound requests sent, by app and destination host', labelNames: ['app', 'host'], registers }),
    egressBytes: new Counter({ name: 'runtime_egress_bytes_total', help: 'Outbound body bytes, by app, host and direction (out = sent, in = received after decompression)', labelNames: ['app', 'host', 'direction'], registers }),
    egressBlocked: new Counter({ name: 'runtime_egress_blocked_total', help: 'Outbound requests refused, by app, host (_other outside the allow-list) and reason', labelNames: ['app', 'host', 'reason'], registers }),
    isolatesLive: new Gauge({ name: 'runtime_isolates_live', help: 'Isolates alive, by worker', labelNames: ['worker'], registers }),
    isolateHeap: new Gauge({ name: 'runtime_isolate_heap_used_bytes', help: 'Heap used by the idle isolates of a worker (last measured), by worker', labelNames: ['worker'], registers }),
    workerRss: new Gauge({ name: 'runtime_worker_rss_bytes', help: 'Resident memory of a sandbox worker process', labelNames: ['worker'], registers }),
    coldStarts: new Counter({ name: 'runtime_cold_starts_total', help: 'Isolates started for an app version', labelNames: ['app'], registers }),
    coldStartSeconds: new Histogram({ name: 'runtime_cold_start_seconds', help: 'Time from request to a loaded isolate on a cold start', buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers }),
    workerRestarts: new Counter({ name: 'runtime_worker_restarts_total', help: 'Sandbox workers replaced, by reason (crash, memory, unstoppable: a CPU stop that did not take effect, hung)', labelNames: ['reason'], registers }),
    retriedRequests: new Counter({ name: 'runtime_requests_retried_total', help: 'Requests run again on another worker because theirs died before entering them', registers }),
    quarantines: new Counter({ name: 'runtime_quarantines_total', help: 'Times an app version was sent to the quarantine worker after taking a worker down, by app', labelNames: ['app'], registers }),
    appLogDropped: new Counter({ name: 'runtime_app_log_dropped_total', help: 'App log lines not shipped to the control plane, by reason (rate: over an app\'s lines a second, queue: the control plane unreachable too long)', labelNames: ['reason'], registers }),
    usageDropped: new Counter({ name: 'runtime_usage_dropped_rows_total', help: 'Usage count rows (app, version, install, minute) given up: the control plane unreachable past the node\'s bound, or a batch refused as invalid', registers }),
    handoffRequests: new Counter({ name: 'runtime_handoff_requests_total', help: 'Hosted requests on connections handed to a worker (RUNTIME_HANDOFF), by path: local (the worker ran it, no supervisor hop) or passed (placed by the supervisor: a heavy app, a quarantined version)', labelNames: ['path'], registers }),
    quarantinedVersions: new Gauge({ name: 'runtime_quarantined_versions', help: 'App versions running on the quarantine worker now', registers }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
