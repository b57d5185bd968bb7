/**
 * @module delivery/relay
 * The development relay's wire protocol (ours; the spec only says deliveries to development
 * installs of self-hosted apps pass through a relay; ours also relays those of hosted apps, which
 * `platform dev` runs in a local sandbox). `platform dev` opens a WebSocket to
 * `{base_url}/v0/apps/{app_id}/relay` with the developer's credential; the service sends each
 * delivery as a `delivery` frame (the exact headers and body it would POST), the CLI posts it to
 * the app on localhost and sends the app's answer back as an `answer` frame, or a `failure` frame
 * when the app could not be reached. One JSON text frame per message.
 */
import { z } from 'zod';
import { DELIVERY_CLASSES } from './headers.ts';

/** The WebSocket path of the relay for a development app. */
export const relayPath = (appId: string): string => `/v0/apps/${encodeURIComponent(appId)}/relay`;

const RequestId = z.string().min(1).max(100);

/** First frame after the connection opens: which app and install the relay serves. */
export const RelayReadySchema = z.looseObject({ type: z.literal('ready'), appId: z.string(), slug: z.string(), installId: z.string() });

/** One delivery to pass on: POST `body` with `headers` to the app, answer within `timeoutMs`. */
export const RelayDeliverySchema = z.looseObject({
  type: z.literal('delivery'),
  requestId: RequestId,
  deliveryId: z.string().min(1),
  deliveryClass: z.enum(DELIVERY_CLASSES),
  eventType: z.string().min(1),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  timeoutMs: z.int().positive(),
  /**
   * Hosted apps only: the install token of the delivery. Hosted apps never handle one (it is not
   * in the signed envelope); `platform dev` runs the bundle locally and adds it to the app's own
   * `/v0` calls, as a runtime node does.
   */
  installToken: z.string().min(1).max(4096).optional(),
});

export const RelayServerMessageSchema = z.discriminatedUnion('type', [RelayReadySchema, RelayDeliverySchema]);

/** The app's answer to a delivery: its status and body (text). */
export const RelayAnswerSchema = z.strictObject({
  type: z.literal('answer'),
  requestId: RequestId,
  status: z.int().min(100).max(599),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string(),
});

/** The app could not be reached (refused, timed out): the delivery counts as failed. */
export const RelayFailureSchema = z.strictObject({ type: z.literal('failure'), requestId: RequestId, message: z.string().max(1_000) });

export const RelayClientMessageSchema = z.discriminatedUnion('type', [RelayAnswerSchema, RelayFailureSchema]);

export type RelayReady = z.infer<typeof RelayReadySchema>;
export type RelayDelivery = z.infer<typeof RelayDeliverySchema>;
export type RelayServerMessage = z.infer<typeof RelayServerMessageSchema>;
export type RelayAnswer = z.infer<typeof RelayAnswerSchema>;
export type RelayClientMessage = z.infer<typeof RelayClientMessageSchema>;
