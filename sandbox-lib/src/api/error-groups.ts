/**
 * @module api/error-groups
 * Ours: an app's errors grouped by fingerprint (`GET /v0/apps/{app_id}/errors`, `…/errors/{group_id}`),
 * what `platform errors` prints and the console's Errors page draws. A group is one kind of error:
 * the same name, the same message once ids and numbers are masked, the same innermost frame in the
 * author's source (file and function). Hosted apps' error and limit lines and every app's failed
 * deliveries are grouped; counts are exact, per version.
 */
import { z } from 'zod';
import { LogLineSchema } from './logs.ts';

export const ERROR_GROUP_LEVELS = ['error', 'limit', 'delivery'] as const;

export const ErrorGroupFrameSchema = z.object({
  file: z.string(),
  function: z.string().nullable(),
  line: z.int().min(0).nullable().meta({ description: 'Of the latest occurrence (lines move between versions; the group does not)' }),
}).meta({ id: 'ErrorGroupFrame' });

export const ErrorGroupVersionSchema = z.object({
  version: z.int().min(1).nullable().meta({ description: 'null: occurrences no version is known for' }),
  count: z.int().min(1),
  firstSeen: z.string(),
  lastSeen: z.string(),
}).meta({ id: 'ErrorGroupVersion' });

export const ErrorGroupSchema = z.object({
  id: z.string().meta({ description: 'The fingerprint: stable for the app, the same error on every version' }),
  level: z.enum(ERROR_GROUP_LEVELS).meta({ description: 'error: uncaught errors, thrown routes, logged Errors, load failures; limit: CPU, memory, deadline, blocked egress; delivery: failed deliveries' }),
  name: z.string().meta({ description: 'The error\'s name, the limit\'s, or the delivery type' }),
  message: z.string().meta({ description: 'The message with ids, numbers, addresses and digests masked (what the group has in common)' }),
  sample: z.string().meta({ description: 'The latest occurrence\'s own message' }),
  topFrame: ErrorGroupFrameSchema.nullable().meta({ description: 'The innermost frame in the app\'s source; null for deliveries and frameless errors' }),
  count: z.int().min(1),
  firstSeen: z.string(),
  lastSeen: z.string(),
  installs: z.int().min(0).meta({ description: 'Installs it happened in' }),
  versions: z.array(ErrorGroupVersionSchema).meta({ description: 'Lowest first; the first is the version the group is new on' }),
}).meta({ id: 'ErrorGroup' });
export type ErrorGroup = z.output<typeof ErrorGroupSchema>;

export const ErrorGroupPageSchema = z.object({ items: z.array(ErrorGroupSchema), nextCursor: z.string().nullable() }).meta({ id: 'ErrorGroupPage' });
export type ErrorGroupPage = z.output<typeof ErrorGroupPageSchema>;

export const ErrorGroupDetailSchema = ErrorGroupSchema.extend({
  examples: z.array(z.object({
    version: z.int().min(1).nullable(),
    line: LogLineSchema.nullable().meta({ description: 'The log line, while it is kept (APP_LOG_RETENTION_HOURS)' }),
    deliveryId: z.string().nullable().meta({ description: 'The failed delivery, for delivery groups (its attempts are on the Deliveries page)' }),
  })).meta({ description: 'The newest occurrences: the latest version\'s first, newest first within a version, at most five per version' }),
}).meta({ id: 'ErrorGroupDetail' });
export type ErrorGroupDetail = z.output<typeof ErrorGroupDetailSchema>;
