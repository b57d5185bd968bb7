/**
 * @module runs/service
 * Runs one request of an app version on this node: makes sure the bundle is here (bundle store),
 * builds the worker job and the egress context, and hands both to the supervisor. Deliveries,
 * manifest reads and hosted ingress all come through here.
 */
import { randomBytes } from 'node:crypto';
import { ENV_KEYS, LIMITS } from '@platform/sandbox-lib';
import type { RuntimeConfig } from '../config.ts';
import type { BundleStore } from '../bundles/store.ts';
import { normalizeHost } from '../egress/hosts.ts';
import type { RunJob } from '../protocol/messages.ts';
import type { GuestRequestInit, RequestKind } from '../shared/bridge.ts';
import type { RunAnswer, Supervisor } from '../supervisor/supervisor.ts';

export interface RunInput {
  app: { id: string; slug: string; version: number };
  sha256: string;
  kind: RequestKind;
  env: Record<string, string>;
  secretEnvKeys: readonly string[];
  egressHosts: readonly string[];
  baseUrl: string | null;
  installToken: string | null;
  request: GuestRequestInit;
  deliveryId: string | null;
  signingSecret: string | null;
  maxResponseBytes: number;
}

export function createRunService(deps: { config: RuntimeConfig; supervisor: Supervisor; bundles: BundleStore; now: () => number }) {
  const prefix = randomBytes(4).toString('hex');
  let seq = 0;
  const { config } = deps;

  const budgets = (kind: RequestKind): { cpuMs: number; deadlineMs: number } => {
    switch (kind) {
      case 'interactive': return { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.actions.interactiveWaitMs };
      case 'command': return { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.actions.invocationWaitMs };
      case 'lifecycle': return { cpuMs: config.cpuMs.request, deadlineMs: LIMITS.deliveries.lifecycleAckMs };
      case 'mcp': return { cpuMs: config.cpuMs.mcp, deadlineMs: config.deadlinesMs.mcp };
      case 'route': return { cpuMs: config.cpuMs.request, deadlineMs: config.deadlinesMs.route };
    }
  };

  return {
    budgets,
    /** A request id for logs and responses: unique on this node. */
    nextRequestId(): string {
      return `req_${prefix}${(++seq).toString(36)}`;
    },
    async run(input: RunInput, requestId: string): Promise<RunAnswer> {
      const bundlePath = await deps.bundles.ensure(input.sha256);
      const { cpuMs, deadlineMs } = budgets(input.kind);
      const secrets = input.secretEnvKeys.map((k) => input.env[k]).filter((v): v is string => typeof v === 'string');
      // The variables every app gets from the platform (sandbox-lib's ENV_KEYS, read by its SDK).
      const env: Record<string, string> = { ...input.env };
      if (input.baseUrl !== null) env[ENV_KEYS.apiUrl] = input.baseUrl;
      if (input.signingSecret !== null) env[ENV_KEYS.signingSecret] = input.signingSecret;
      const job: RunJob = {
        id: requestId,
        appId: input.app.id,
        version: { key: `${input.app.id}@${input.app.version}:${input.sha256}`, sha256: input.sha256, bundlePath },
        kind: input.kind,
        cpuBudgetMs: cpuMs,
        deadlineMs,
        maxResponseBytes: input.maxResponseBytes,
        request: input.request,
        env,
        context: { kind: input.kind, requestId, deliveryId: input.deliveryId },
        redact: input.signingSecret === null ? secrets : [...secrets, input.signingSecret],
      };
      const egress = {
        appId: input.app.id,
        egressHosts: input.egressHosts.map(normalizeHost),
        platformOrigin: input.baseUrl === null ? null : new URL(input.baseUrl).origin,
        installToken: input.installToken,
        deadlineAt: deps.now() + deadlineMs,
        sent: 0,
      };
      return deps.supervisor.run(job, egress, { version: input.app.version, deliveryId: input.deliveryId });
    },
  };
}

export type RunService = ReturnType<typeof createRunService>;
