/**
 * @module apps/operator-metrics/schemas
 * The answer of `GET /client/v1/operator/apps-metrics`.
 */
import { z } from 'zod';

const Counts = z.record(z.string(), z.number());

export const AppMetricsSchema = z.object({
  appId: z.string(),
  slug: z.string(),
  name: z.string(),
  cpu: z.object({
    p50Ms: z.number().nullable().meta({ description: 'Median guest CPU per request (ms, from the nodes\' histogram buckets), null without requests' }),
    p99Ms: z.number().nullable(),
  }),
  requests: Counts.meta({ description: 'Requests by outcome (ok, error, cpu_limit, memory_limit, deadline, crashed)' }),
  egress: Counts.meta({ description: 'Outbound requests sent, by destination host' }),
  blocked: Counts.meta({ description: 'Outbound requests refused, by host (_other: outside the allow-list)' }),
  coldStarts: z.number(),
  quarantines: z.number(),
  lifecycle: Counts.meta({ description: 'Lifecycle delivery attempts by outcome (delivered, pending = will retry, dead, paused, skipped)' }),
});
export type AppMetrics = z.output<typeof AppMetricsSchema>;

export const OperatorMetricsSchema = z.object({
  apps: z.array(AppMetricsSchema),
  nodes: z.array(z.object({
    url: z.string(),
    reachable: z.boolean(),
    workerRestarts: Counts.meta({ description: 'Sandbox workers replaced on this node, by reason (not per app: a worker runs many apps)' }),
  })),
});
export type OperatorMetrics = z.output<typeof OperatorMetricsSchema>;
