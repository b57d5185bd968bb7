/**
 * @module protocol/run-input
 * What a request to run carries between the runtime's parts: the app as the directory resolved it
 * (`ResolvedApp`) and one run's input (`RunInput`). They live in protocol/ because the supervisor,
 * the workers (on handed connections) and runs/ingress all pass them, and protocol/ is the low
 * folder the others import (no folder imports another one above it).
 */
import type { IncomingMessage } from 'node:http';
import type { HeaderBlock, RequestKind } from '../shared/bridge.ts';

export interface ResolvedApp {
  appId: string;
  slug: string;
  version: number;
  sha256: string;
  /** The version's source map, when it was uploaded with one. */
  sourceMapSha256?: string | null;
  /** Env vars of the production target. */
  env: Record<string, string>;
  /** Keys of `env` whose values are secret (never logged). */
  secretEnvKeys: string[];
  egressHosts: string[];
  /** The service's API origin (`{base_url}`); calls to its /v0 are allowed. */
  baseUrl: string | null;
}

export interface RunInput {
  app: { id: string; slug: string; version: number };
  sha256: string;
  /** The version's source map (sha256), or null when it has none. */
  sourceMapSha256: string | null;
  kind: RequestKind;
  env: Record<string, string>;
  secretEnvKeys: readonly string[];
  egressHosts: readonly string[];
  baseUrl: string | null;
  installToken: string | null;
  request: { method: string; url: string; headers: HeaderBlock; body: Buffer | string | null };
  deliveryId: string | null;
  /** The install a delivery is for; null for routes. */
  installId: string | null;
  /** What the app log's `request` line calls this request (logs/request-label.ts). */
  label: string;
  maxResponseBytes: number;
  /**
   * An object that stands for this app version and env while it lives (ingress passes its cached
   * directory record): what is derived from them is then derived once, not per request.
   */
  source?: object;
  /** The control plane's W3C `traceparent` of a delivery (internal API only, after its secret was checked). */
  traceparent?: string | null;
  /** The HTTP request this came from, on a connection handed to a worker (its journal marks the entry). */
  client?: IncomingMessage;
}
