/**
 * @module client/client
 * `createPlatformClient`: the typed, checked `/v0` client. One method per endpoint of `API_ROUTES`,
 * grouped by resource (`methods.ts`); `request(name, input)` reaches any route by its name. Request
 * bodies are checked with the strict request schemas before sending, answers read with the lenient
 * response schemas. Web-standard (`fetch` only).
 */
import { callRoute, type Transport } from './request.ts';
import { clientMethods, type PlatformClient } from './methods.ts';

export type { PlatformClient };

export interface PlatformClientOptions {
  /** The service's base URL (`{base_url}`), without `/v0`. */
  readonly baseUrl: string;
  /** The bearer credential sent with every call: an install token, a member API key, ... */
  readonly token?: string;
  readonly fetch?: typeof fetch;
}

/** The transport of a client's options (the global `fetch` unless one is given). */
export const transportOf = (options: PlatformClientOptions): Transport =>
  ({ baseUrl: options.baseUrl, token: options.token, fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)) });

/**
 * Creates a checked `/v0` client.
 * @example
 * const api = createPlatformClient({ baseUrl: 'https://platform.example.com', token: envelope.installToken.token });
 * await api.replies.post({ conversationId: 'cnv_1', content: { type: 'doc', content: [] } });
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const transport = transportOf(options);
  return clientMethods((name, input, o) => callRoute(transport, name, input, o));
}
