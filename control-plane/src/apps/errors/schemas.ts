/**
 * @module apps/errors/schemas
 * Wire shapes of error groups: the groups and a group's detail are the SDK's (sandbox-lib/src/api/
 * error-groups.ts, read by the CLI and the console too); the list's filters are here.
 */
import { z } from 'zod';
import { COUNTER_MAX, ERROR_GROUP_LEVELS, ErrorGroupDetailSchema, ErrorGroupPageSchema, ErrorGroupSchema } from '@platform/sdk';

export { ErrorGroupDetailSchema, ErrorGroupPageSchema, ErrorGroupSchema };

export const ERROR_GROUP_PAGE = { default: 50, max: 200 } as const;

export const ErrorGroupQuerySchema = z.strictObject({
  version: z.coerce.number().int().min(1).max(COUNTER_MAX).optional().meta({ description: 'Only occurrences on this version' }),
  level: z.enum(ERROR_GROUP_LEVELS).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ERROR_GROUP_PAGE.max).default(ERROR_GROUP_PAGE.default),
});
export type ErrorGroupQuery = z.output<typeof ErrorGroupQuerySchema>;
