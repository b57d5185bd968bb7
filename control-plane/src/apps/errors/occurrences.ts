/**
 * @module apps/errors/occurrences
 * What counts as an occurrence, read off what the platform already records: a hosted app's stored
 * `error` and `limit` log lines (uncaught errors, thrown routes, Errors the app logged, load
 * failures, CPU and memory stops, deadlines, blocked egress), and failed delivery attempts of any
 * app (hosted or self-hosted, interactive or lifecycle).
 */
import type { LogError } from '@platform/sdk';
import { fingerprint, maskMessage, topFrame, type ErrorParts } from './fingerprint.ts';
import type { Occurrence } from './store.ts';

/** A stored log line, as far as grouping reads it (the logs area's rows have this shape). */
export interface StoredLine {
  seq: number;
  app_id: string;
  at: Date;
  version: number | null;
  install_id: string | null;
  level: string;
  message: string;
  error: Record<string, unknown> | null;
}

/** A delivery attempt that failed (no answer, a refused answer, or a non-2xx status). */
export interface FailedAttempt {
  appId: string;
  installId: string;
  deliveryId: string;
  /** The delivery type (`block.action`, `post.created`, …). */
  type: string;
  version: number | null;
  status: number | null;
  error: string;
  at: Date;
}

/** The occurrence's own text, as a group shows its latest one. */
const SAMPLE_CHARS = 500;
const cut = (text: string): string => [...text].slice(0, SAMPLE_CHARS).join('');

function occurrence(appId: string, parts: ErrorParts, o: { version: number | null; installId: string | null; at: Date; example: string; sample: string }): Occurrence {
  return { appId, fingerprint: fingerprint(parts), parts, version: o.version ?? 0, installId: o.installId, at: o.at, example: o.example, sample: cut(o.sample) };
}

/** The error and limit lines of a stored batch, as occurrences; other lines are not errors. */
export function fromLines(rows: readonly StoredLine[]): Occurrence[] {
  return rows.flatMap((row) => {
    if (row.level !== 'error' && row.level !== 'limit') return [];
    const error = row.error as LogError | null;
    // A limit line's name is the limit's tag when the runtime gave one; its message says which limit.
    const name = error?.name ?? (row.level === 'limit' ? 'Limit' : 'Error');
    const message = error?.message ?? row.message;
    const parts: ErrorParts = { level: row.level, name, message: maskMessage(message), topFrame: topFrame(error?.frames ?? []) };
    return [occurrence(row.app_id, parts, { version: row.version, installId: row.install_id, at: row.at, example: String(row.seq), sample: message })];
  });
}

/** Failed attempts as occurrences: grouped by delivery type, status and masked error. */
export function fromAttempts(attempts: readonly FailedAttempt[]): Occurrence[] {
  return attempts.map((a) => {
    // The status is part of the name, where masking does not reach: a 404 and a 500 are two groups.
    const name = a.status === null ? a.type : `${a.type} (HTTP ${a.status})`;
    const parts: ErrorParts = { level: 'delivery', name, message: maskMessage(a.error), topFrame: null };
    return occurrence(a.appId, parts, { version: a.version, installId: a.installId, at: a.at, example: a.deliveryId, sample: a.error });
  });
}
