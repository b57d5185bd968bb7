/**
 * @module deliveries/routes
 * `POST /internal/v1/deliveries`: run a delivery (or MCP request) for an app version and answer
 * with the guest's response, or the tagged error (see docs/runtime.md).
 */
import { LIMITS } from '@platform/sandbox-lib';
import type { Hono } from 'hono';
import { readJson } from '../http/body.ts';
import { toHttpResponse } from '../http/guest-response.ts';
import { DeliveryRequestSchema } from './schemas.ts';
import type { createDeliveryService } from './service.ts';

const MAX_REQUEST_BYTES = 4 * 1024 * 1024 + LIMITS.manifest.envVarsPerEnvironment * LIMITS.manifest.envValueBytes;

export function mountDeliveryRoutes(app: Hono, deliveries: ReturnType<typeof createDeliveryService>): void {
  app.post('/internal/v1/deliveries', async (c) => {
    const input = DeliveryRequestSchema.parse(await readJson(c, MAX_REQUEST_BYTES));
    const { requestId, answer } = await deliveries.deliver(input);
    return toHttpResponse(requestId, answer, { internal: true, allowCookies: false });
  });
}
