/**
 * @module events/schema
 * The event names as a zod enum, apart from the table so that code reading the table needs no zod.
 */
import { z } from 'zod';
import { EVENT_TYPES } from './table.ts';

export const EventTypeSchema = z.enum(EVENT_TYPES);
