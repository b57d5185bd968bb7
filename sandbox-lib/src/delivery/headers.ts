/**
 * @module delivery/headers
 * The headers of every delivery (spec "Endpoints the service calls on the app"). A request that
 * carries both `platform-delivery` and `webhook-signature` is a delivery.
 */

export const DELIVERY_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
  deliveryClass: 'platform-delivery',
  install: 'platform-install',
} as const;

export const DELIVERY_CLASSES = ['interactive', 'lifecycle'] as const;
export type DeliveryClass = (typeof DELIVERY_CLASSES)[number];

/** The path of a hosted worker that receives deliveries. */
export const HOSTED_DELIVERY_PATH = '/platform';
