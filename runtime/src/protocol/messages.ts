/**
 * @module protocol/messages
 * The IPC contract between the supervisor and its sandbox worker processes (Node's advanced
 * serialization, so byte arrays cross as Uint8Array). Both sides import these types; the worker
 * trusts the supervisor, the supervisor re-checks what the worker reports about guest output.
 */
import type { ErrorTag } from '@platform/sandbox-lib';
import type { LogLevel } from '../capabilities/types.ts';
import type { WorkerLimits } from '../config.ts';
import type { GuestContextInfo, GuestFetchInit, GuestFetchResult, GuestRequestInit, GuestResponseInit, RequestKind } from '../shared/bridge.ts';

export interface VersionRef {
  /** `{appId}@{version}:{sha256}`: one pool per key. */
  key: string;
  sha256: string;
  /** Verified bundle file in the node's data dir (the supervisor wrote it). */
  bundlePath: string;
}

export interface RunJob {
  id: string;
  appId: string;
  version: VersionRef;
  kind: RequestKind;
  cpuBudgetMs: number;
  deadlineMs: number;
  maxResponseBytes: number;
  request: GuestRequestInit;
  env: Record<string, string>;
  context: GuestContextInfo;
  /** Values never to appear in logs (secret env values, the signing secret). */
  redact: string[];
}

export interface ManifestJob {
  id: string;
  version: VersionRef;
  cpuBudgetMs: number;
  deadlineMs: number;
}

export type Outcome = 'ok' | 'error' | 'cpu_limit' | 'memory_limit' | 'deadline' | 'crashed';

export interface LogLine {
  level: LogLevel | 'limit';
  message: string;
  at: number;
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

export type ToWorker =
  | { t: 'init'; guestSource: string; limits: WorkerLimits }
  | { t: 'run'; job: RunJob }
  | { t: 'manifest'; job: ManifestJob }
  | { t: 'egress-result'; id: string; opId: number; ok: true; result: GuestFetchResult }
  | { t: 'egress-result'; id: string; opId: number; ok: false; message: string }
  | { t: 'stats' };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'response'; id: string; response: GuestResponseInit }
  | { t: 'result'; id: string; response?: GuestResponseInit; error?: RunError; manifestJson?: string; report: RunReport }
  | { t: 'egress'; id: string; opId: number; init: GuestFetchInit }
  | { t: 'egress-abort'; id: string; opId: number }
  | { t: 'stats'; isolates: number; heapBytes: number; versions: number; rssBytes: number }
  | { t: 'fatal'; message: string }
  /** A platform fault inside the worker, for the node's own log (never guest text). */
  | { t: 'log'; level: 'warn' | 'error'; message: string; error: string };
