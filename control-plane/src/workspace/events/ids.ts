/**
 * @module workspace/events/ids
 * Outbox event ids in the form of `core/ids/ids.ts`: `evt_` + 128 random bits in base32 (each
 * event row is also its delivery's `webhook-id`).
 */
import { idMaker } from '../../core/ids/ids.ts';

export const newEventId = idMaker('event');
