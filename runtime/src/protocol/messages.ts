/**
 * @module protocol/messages
 * The contract between the supervisor and its sandbox worker processes, carried by channel.ts
 * (a JSON head per message; request, response and egress bodies travel as the frame's bytes).
 * Both sides import these types; the worker trusts the supervisor, the supervisor re-checks what
 * the worker reports about guest output.
 */
import type { ErrorTag, LogError } from '@platform/sdk';
import type { LogLevel } from '../capabilities/types.ts';
import type { WorkerLimits } from '../config/config.ts';
import type { HeaderBlock, RequestKind } from '../shared/bridge.ts';
import type { ResolvedApp, RunInput } from './run-input.ts';

/**
 * One app version as a worker runs it, sent once per worker and then named by `vid`. Everything a
 * request of that version shares (bundle, env, values to redact) crosses once, not per request.
 */
export interface VersionSpec {
  vid: number;
  /** `{appId}@{version}:{sha256}`: isolates are pooled per key. */
  key: string;
  appId: string;
  sha256: string;
  /** Verified bundle file in the node's data dir (the supervisor wrote it). */
  bundlePath: string;
  /**
   * Where the version's source map is in the node's data dir (written whole by the supervisor once
   * fetched; it may not be there yet), or null when the version has none.
   */
  sourceMapPath: string | null;
  env: Record<string, string>;
  /** Values never to appear in logs (secret env values). */
  redact: string[];
}

export interface RunJob {
  /** Order of the job on its worker: the worker records the last one it entered (journal.ts). */
  seq: number;
  id: string;
  vid: number;
  kind: RequestKind;
  cpuBudgetMs: number;
  deadlineMs: number;
  maxResponseBytes: number;
  method: string;
  url: string;
  headers: HeaderBlock;
  deliveryId: string | null;
  /** Run under the CPU profiler (the version was just stopped at its CPU budget; supervisor/profiles.ts). */
  profile?: boolean;
}

export interface ManifestJob {
  seq: number;
  id: string;
  vid: number;
  cpuBudgetMs: number;
  deadlineMs: number;
}

export type Outcome = 'ok' | 'error' | 'cpu_limit' | 'memory_limit' | 'deadline' | 'crashed';

export interface LogLine {
  level: LogLevel | 'limit';
  message: string;
  at: number;
  /** The error the line is about, its frames mapped to the author's sources where the map allows. */
  error?: LogError;
}

export interface RunReport {
  outcome: Outcome;
  cpuMs: number;
  wallMs: number;
  coldStartMs: number | null;
  logs: LogLine[];
  droppedLogs: number;
}

export interface RunError {
  tag: ErrorTag;
  message: string;
  fields?: Record<string, unknown>;
}

/** The head of a guest response; its body is the frame's bytes. */
export interface ResponseHead {
  status: number;
  statusText: string;
  headers: HeaderBlock;
}

/**
 * Hand-off (RUNTIME_HANDOFF=ingress): what a worker needs to serve hosted ingress on connections
 * the supervisor handed it (docs/decisions/runtime.md, Runtime v3).
 */
export interface HandoffSetup {
  publicUrl: string;
  hostedAppDomain: string | null;
  maxBodyBytes: number;
  directoryTtlMs: number;
  /** Request ids the worker makes are `req_{idPrefix}{n}`: unique on the node. */
  idPrefix: string;
  budgets: Record<'route' | 'mcp', { cpuMs: number; deadlineMs: number }>;
}

/**
 * An app as hosted ingress resolved it, and how the worker may run it: `vid` names the version
 * spec sent before (the worker runs it itself), null when the supervisor must place it (its version
 * is quarantined or its app is heavy: admission applies).
 */
export interface IngressTicket {
  app: ResolvedApp;
  vid: number | null;
}

/** The end of a request a worker ran itself on a handed connection. */
export interface LocalEnd {
  id: string;
  vid: number;
  label: string;
  kind: RequestKind;
  httpStatus: number | null;
  report: RunReport;
}

/** A request a worker passes to the supervisor to run (the body is the frame's bytes). */
export type PassedInput = Omit<RunInput, 'source' | 'request'> & { request: { method: string; url: string; headers: HeaderBlock } };

export type ToWorker =
  | { t: 'init'; guestSource: string; limits: WorkerLimits }
  | { t: 'version'; spec: VersionSpec }
  | { t: 'run'; job: RunJob }
  | { t: 'manifest'; job: ManifestJob }
  | { t: 'egress-result'; id: string; opId: number; ok: true; status: number; statusText: string; headers: HeaderBlock; url: string; redirected: boolean }
  | { t: 'egress-result'; id: string; opId: number; ok: false; message: string }
  | { t: 'stats' }
  | { t: 'handoff'; setup: HandoffSetup }
  | { t: 'app'; id: number; ticket: IngressTicket | null }
  /** The answer to a passed request: the guest's response head (its body is the frame's bytes), or a tagged error. */
  | { t: 'passed'; id: string; head: ResponseHead }
  | { t: 'passed'; id: string; error: RunError }
  /** The app's requests go through the supervisor from now on (it turned heavy, a version of it was quarantined). */
  | { t: 'revoke'; appId: string };

export type FromWorker =
  | { t: 'ready' }
  /** The guest answered; `report` is there when the request also ended (no `waitUntil` work left). */
  | { t: 'response'; id: string; response: ResponseHead; report?: RunReport }
  /** The request ended: after an earlier `response`, or with an error, or (manifest jobs) with the manifest JSON as the body. */
  | { t: 'end'; id: string; report: RunReport; error?: RunError }
  /** The CPU profile of a request stopped at its budget (`.cpuprofile` JSON as the body), sent before its end. */
  | { t: 'profile'; id: string }
  | { t: 'egress'; id: string; opId: number; method: string; url: string; headers: HeaderBlock; redirect: 'follow' | 'manual' | 'error' }
  | { t: 'egress-abort'; id: string; opId: number }
  | { t: 'stats'; isolates: number; heapBytes: number; versions: number; rssBytes: number }
  /** A platform fault inside the worker, for the node's own log (never guest text). */
  | { t: 'log'; level: 'warn' | 'error'; message: string; error: string }
  /** Hand-off: the app a slug names, for hosted ingress on a handed connection. */
  | { t: 'app'; id: number; slug: string }
  | { t: 'pass'; id: string; input: PassedInput }
  /** A request the worker runs itself is about to call out (sent once, before its first `egress`). */
  | { t: 'local'; id: string; vid: number; deadlineAt: number }
  /** A handed connection closed (the supervisor counts each worker's connections). */
  | { t: 'conn-end'; slot: number }
  /** Request `n` of a handed connection waits, not entered: its bytes (the frame's body), to run again elsewhere if this worker dies. */
  | { t: 'held'; slot: number; n: number }
  /** Request `n` of a handed connection entered, was passed or was answered: its held bytes are dropped. */
  | { t: 'unheld'; slot: number; n: number }
  /** Local requests that ended, batched (sandbox/local-runs.ts: one frame per 20 ms or 256 ends). */
  | { t: 'local-ends'; ends: LocalEnd[] };
