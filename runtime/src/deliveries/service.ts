/**
 * @module deliveries/service
 * A delivery to a hosted app: the install token leaves the envelope (the guest never sees it; the
 * egress proxy adds it to the app's own `/v0` calls), the envelope is signed here exactly like a
 * delivery to a self-hosted endpoint (Standard Webhooks, byte-identical to sandbox-lib's signer), and the guest
 * receives it as `POST /platform`. MCP requests are posted to `/mcp` unsigned.
 */
import { HOSTED_DELIVERY_PATH, PlatformError, invalidRequest, type DeliveryClass } from '@platform/sandbox-lib';
import type { RunAnswer } from '../supervisor/supervisor.ts';
import type { RunService } from '../runs/service.ts';
import type { DeliveryRequest } from './schemas.ts';
import { signedDeliveryHeaders } from './sign.ts';

const MCP_PATH = '/mcp';
const RESPONSE_MAX_BYTES = 1024 * 1024;
const encoder = new TextEncoder();

function tokenIn(envelope: Record<string, unknown>): string | null {
  const t = envelope.installToken;
  if (typeof t === 'string') return t;
  if (typeof t === 'object' && t !== null && typeof (t as { token?: unknown }).token === 'string') return (t as { token: string }).token;
  return null;
}

export function createDeliveryService(deps: { runs: RunService; appOrigin: (slug: string) => string; now: () => number }) {
  return {
    async deliver(input: DeliveryRequest): Promise<{ requestId: string; answer: RunAnswer }> {
      const { installToken: _removed, ...envelope } = input.envelope;
      const installToken = input.installToken ?? tokenIn(input.envelope);
      const origin = deps.appOrigin(input.app.slug);
      let request;
      let deliveryId: string | null = null;
      if (input.kind === 'mcp') {
        const headers: Array<[string, string]> = Object.entries(input.headers ?? {});
        headers.push(['content-type', 'application/json'], ['accept', 'application/json, text/event-stream']);
        request = { method: 'POST', url: `${origin}${MCP_PATH}`, headers, body: encoder.encode(JSON.stringify(input.envelope)) };
      } else {
        if (input.headers !== undefined) throw invalidRequest([{ path: ['headers'], message: 'headers are only accepted for kind mcp' }]);
        if (typeof envelope.id !== 'string' || envelope.id.length === 0) throw invalidRequest([{ path: ['envelope', 'id'], message: 'The envelope needs its delivery id' }]);
        deliveryId = envelope.id;
        const install = envelope.install as { id?: unknown } | undefined;
        const body = JSON.stringify(envelope);
        const deliveryClass: DeliveryClass = input.kind === 'lifecycle' ? 'lifecycle' : 'interactive';
        let headers: Record<string, string>;
        try {
          headers = signedDeliveryHeaders({ id: deliveryId, timestamp: Math.floor(deps.now() / 1000), body, secret: input.signingSecret, deliveryClass, installId: typeof install?.id === 'string' ? install.id : '' });
        } catch (err) {
          throw new PlatformError('PlatformApiInvalidRequestError', err instanceof Error ? err.message : 'The delivery cannot be signed', { fields: { issues: [{ path: ['signingSecret'], message: 'Cannot sign with this secret' }] } });
        }
        request = { method: 'POST', url: `${origin}${HOSTED_DELIVERY_PATH}`, headers: Object.entries(headers), body: encoder.encode(body) };
      }
      const requestId = deps.runs.nextRequestId();
      const answer = await deps.runs.run({
        app: input.app,
        sha256: input.bundle.sha256,
        kind: input.kind,
        env: input.env,
        secretEnvKeys: input.secretEnvKeys,
        egressHosts: input.egressHosts,
        baseUrl: input.baseUrl,
        installToken,
        request,
        deliveryId,
        signingSecret: input.kind === 'mcp' ? null : input.signingSecret,
        maxResponseBytes: RESPONSE_MAX_BYTES,
      }, requestId);
      return { requestId, answer };
    },
  };
}
