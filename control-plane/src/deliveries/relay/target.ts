/**
 * @module deliveries/relay/target
 * The development relay as a `DeliveryTarget`: deliveries to `dev` installs of self-hosted apps go
 * to the developer's `platform dev`, which posts them to the app on localhost. With no relay
 * connected, an interactive delivery fails at once with `PlatformAppRelayNotConnectedError` (a
 * member is waiting); a lifecycle delivery fails its attempt and waits for its retry.
 */
import { PlatformError } from '@platform/sdk';
import type { DeliveryTarget } from '../targets/target.ts';
import type { RelayHub } from './hub.ts';

export function relayNotConnected(): PlatformError {
  return new PlatformError('PlatformAppRelayNotConnectedError', 'No `platform dev` relay is connected for this development app; start `platform dev` and try again');
}

/**
 * @example
 * const relay = createRelayTarget(hub);
 * const outcome = await relay.send(delivery); // interactive without a relay: throws PlatformAppRelayNotConnectedError
 */
export function createRelayTarget(hub: RelayHub): DeliveryTarget {
  return {
    async send(delivery) {
      const outcome = await hub.deliver(delivery);
      if (outcome !== null) return outcome;
      if (delivery.deliveryClass === 'interactive') throw relayNotConnected();
      return { ok: false, failure: 'relay-not-connected', message: 'no platform dev relay is connected for this development app', durationMs: 0 };
    },
  };
}
