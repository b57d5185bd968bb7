/**
 * @module deliveries/page/store
 * SQL of the Deliveries page: listing an app's deliveries with filters (newest first, keyset
 * cursor), one delivery with its attempts (and the app's answers as kept) and its payload or
 * recorded request, re-queuing one. Interactive deliveries are
 * written by their recorder (deliveries/interactive/store.ts) and listed here with the lifecycle ones.
 */
import type { Db } from '../../core/db/db.ts';
import type { RecordedRequest } from '../interactive/request-record.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'paused' | 'dead' | 'cancelled' | 'failed';

export interface DeliveryRow {
  id: string;
  app_id: string;
  install_id: string;
  class: 'lifecycle' | 'interactive';
  type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

const COLUMNS = `d.id, d.app_id, d.install_id, d.class, d.type, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status,
  d.last_error, d.delivered_at, d.created_at`;

export interface DeliveryFilter {
  installId?: string | undefined;
  class?: 'lifecycle' | 'interactive' | undefined;
  type?: string | undefined;
  outcomes?: DeliveryStatus[] | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

export async function listDeliveries(db: Db, appId: string, filter: DeliveryFilter, before: { at: Date; id: string } | null, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `select ${COLUMNS} from deliveries d
      where d.app_id = $1
        and ($2::text is null or d.install_id = $2)
        and ($3::text is null or d.class = $3)
        and ($4::text is null or d.type = $4)
        and ($5::text[] is null or d.status = any($5::text[]))
        and ($6::timestamptz is null or d.created_at >= $6)
        and ($7::timestamptz is null or d.created_at < $7)
        and ($8::timestamptz is null or (d.created_at, d.id) < ($8, $9))
      order by d.created_at desc, d.id desc limit $10`,
    [appId, filter.installId ?? null, filter.class ?? null, filter.type ?? null, filter.outcomes ?? null, filter.since ?? null, filter.until ?? null,
      before?.at ?? null, before?.id ?? '', limit + 1]);
  return rows;
}

export interface DeliveryDetailRow extends DeliveryRow {
  payload: Record<string, unknown> | null;
  actor: { memberId: string; name: string } | null;
  /** Interactive deliveries: the request as kept (deliveries/interactive/request-record.ts). */
  request: RecordedRequest | null;
}

export async function findDelivery(db: Db, appId: string, deliveryId: string): Promise<DeliveryDetailRow | undefined> {
  const { rows } = await db.query<DeliveryDetailRow>(
    `select ${COLUMNS}, e.payload, e.actor, d.request from deliveries d left join outbox_events e on e.id = d.event_id where d.app_id = $1 and d.id = $2`,
    [appId, deliveryId]);
  return rows[0];
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number | null;
  status: number | null;
  error: string | null;
  response: string | null;
  response_truncated: boolean;
}

export async function listAttempts(db: Db, deliveryId: string): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptRow>(
    'select attempt, started_at, duration_ms, status, error, response, response_truncated from delivery_attempts where delivery_id = $1 order by attempt',
    [deliveryId]);
  return rows;
}

/** Makes a lifecycle delivery due at `at` with a fresh retry schedule; false when it is not in a state that allows it. */
export async function requeueDelivery(db: Db, appId: string, deliveryId: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `update deliveries set status = 'pending', next_attempt_at = $3, schedule_attempts = 0, lease = null
      where app_id = $1 and id = $2 and class = 'lifecycle' and status in ('delivered', 'dead', 'pending')`,
    [appId, deliveryId, at]);
  return rowCount > 0;
}
