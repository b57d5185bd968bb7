/**
 * @module manifest/rules/endpoint
 * `endpoint-required`, `endpoint-unexpected` and ours `egress-unexpected`: a self-hosted app gives
 * the URL deliveries go to; a hosted app runs at the service and has an egress allow-list instead.
 */
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const endpointRule: ManifestRule = (manifest) => {
  if (manifest.hosting === 'self') {
    if (!manifest.endpoint) return manifestInvalid('endpoint-required', 'A self-hosted app needs an endpoint URL', ['endpoint']);
    if (manifest.egressHosts.length > 0) {
      return manifestInvalid('egress-unexpected', 'Outbound hosts are for hosted apps only; a self-hosted app calls what it likes', ['egressHosts']);
    }
  } else if (manifest.endpoint) {
    return manifestInvalid('endpoint-unexpected', 'A hosted app has no endpoint: the service runs it', ['endpoint']);
  }
  return null;
};
