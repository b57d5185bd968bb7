/**
 * @module deliveries/service
 * A delivery to a hosted app, as the control plane sent it: signed already (its Standard Webhooks
 * headers and the exact signed body), the install token apart (it stays in the supervisor, which
 * adds it to the app's own `/v0` calls). The guest receives it as `POST /platform`, with `ctx.deliveryId`
 * set: the runtime vouches for it, since it holds no secret to let the guest check a signature.
 * MCP requests are posted to `/mcp`.
 */
import { DELIVERY_HEADERS, HOSTED_DELIVERY_PATH } from '@platform/sdk';
import { deliveryLabel } from '../logs/request-label.ts';
import type { RunResult } from '../supervisor/supervisor.ts';
import type { RunService } from '../runs/service.ts';
import type { DeliveryRequest } from './schemas.ts';

const MCP_PATH = '/mcp';
const RESPONSE_MAX_BYTES = 1024 * 1024;
const JSON_TYPE = 'application/json';

export function createDeliveryService(deps: { runs: RunService; appOrigin: (slug: string) => string }) {
  return {
    async deliver(input: DeliveryRequest, traceparent?: string): Promise<{ requestId: string; result: RunResult }> {
      let headers = '';
      for (const name in input.headers) headers += headers === '' ? `${name}\n${input.headers[name]}` : `\n${name}\n${input.headers[name]}`;
      if (input.headers['content-type'] === undefined) headers += `${headers === '' ? '' : '\n'}content-type\n${JSON_TYPE}`;
      if (input.kind === 'mcp' && input.headers.accept === undefined) headers += `\naccept\n${JSON_TYPE}, text/event-stream`;
      const path = input.kind === 'mcp' ? MCP_PATH : HOSTED_DELIVERY_PATH;
      const requestId = deps.runs.nextRequestId();
      const result = await deps.runs.run({
        app: input.app,
        sha256: input.bundle.sha256,
        sourceMapSha256: input.bundle.sourceMapSha256 ?? null,
        kind: input.kind,
        env: input.env,
        secretEnvKeys: input.secretEnvKeys,
        egressHosts: input.egressHosts,
        baseUrl: input.baseUrl,
        installToken: input.installToken ?? null,
        request: { method: 'POST', url: `${deps.appOrigin(input.app.slug)}${path}`, headers, body: input.body },
        deliveryId: input.kind === 'mcp' ? null : input.headers[DELIVERY_HEADERS.id]!,
        installId: input.headers[DELIVERY_HEADERS.install] ?? null,
        label: deliveryLabel(input.kind, input.body),
        maxResponseBytes: RESPONSE_MAX_BYTES,
        traceparent: traceparent ?? null,
      }, requestId);
      return { requestId, result };
    },
  };
}
