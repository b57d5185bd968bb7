/**
 * @module deliveries/routes
 * `POST /internal/v1/deliveries`, served straight on node:http (the hot path: no Web Request or
 * Response objects, the precompiled check before zod): run a delivery (or MCP request) for an app
 * version and answer with the guest's response, or the tagged error (docs/runtime.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIMITS } from '@platform/sdk';
import type { Logger } from 'pino';
import { writeAnswer } from '../http/answer.ts';
import { parseJson, readIncoming } from '../http/body.ts';
import { writeError } from '../http/errors.ts';
import { checkDelivery } from './check.ts';
import { DeliveryRequestSchema } from './schemas.ts';
import type { createDeliveryService } from './service.ts';

export const DELIVERIES_PATH = '/internal/v1/deliveries';
const MAX_REQUEST_BYTES = 4 * 1024 * 1024 + LIMITS.manifest.envVarsPerEnvironment * LIMITS.manifest.envValueBytes + 64 * 1024;

export function createDeliveryRoute(deps: { checkSecret: (header: string | undefined) => void; deliveries: ReturnType<typeof createDeliveryService>; logger: Logger }) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      deps.checkSecret(req.headers.authorization);
      const parsed = parseJson(await readIncoming(req, MAX_REQUEST_BYTES));
      const input = checkDelivery(parsed) ?? DeliveryRequestSchema.parse(parsed);
      // `traceparent` is read only past the secret check: the control plane's, never a stranger's.
      const { requestId, result } = await deps.deliveries.deliver(input, typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined);
      writeAnswer(res, requestId, result, { internal: true, allowCookies: false });
    } catch (err) {
      writeError(res, err, deps.logger, DELIVERIES_PATH);
    }
  };
}
