/**
 * @module outbound/signed-headers
 * The spec's delivery headers. During a signing-secret rotation a delivery carries one signature
 * per live secret, space-separated, so apps verify with either the old or the new secret.
 */
import { DELIVERY_HEADERS, signDelivery, type DeliveryClass } from '@platform/sandbox-lib';

export interface SignedHeadersInput {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  /** Every live signing secret (`whsec_…`), newest first. */
  secrets: readonly string[];
  deliveryClass: DeliveryClass;
  installId: string;
}

/**
 * @example
 * const headers = await signedHeaders({ id, timestamp, body, secrets: [current, previous], deliveryClass: 'lifecycle', installId });
 */
export async function signedHeaders(input: SignedHeadersInput): Promise<Record<string, string>> {
  if (input.secrets.length === 0) throw new Error('A delivery needs at least one signing secret');
  const signatures = await Promise.all(input.secrets.map((secret) => signDelivery({ id: input.id, timestamp: input.timestamp, body: input.body, secret })));
  return {
    [DELIVERY_HEADERS.id]: input.id,
    [DELIVERY_HEADERS.timestamp]: String(input.timestamp),
    [DELIVERY_HEADERS.signature]: signatures.join(' '),
    [DELIVERY_HEADERS.deliveryClass]: input.deliveryClass,
    [DELIVERY_HEADERS.install]: input.installId,
    'content-type': 'application/json',
  };
}
