/**
 * @module api/errors
 * The error body every endpoint answers with (spec Errors), as read by a client: `_tag`,
 * `message`, `path` and the error's own fields (kept, since the body is read leniently).
 */
import { z } from 'zod';

const PathSchema = z.array(z.union([z.string(), z.number()]));

export const ErrorBodySchema = z.looseObject({
  _tag: z.string().min(1),
  message: z.string(),
  path: PathSchema.default([]),
  issues: z.array(z.looseObject({ path: PathSchema, message: z.string() })).optional(),
});

export type ErrorBodyRead = z.infer<typeof ErrorBodySchema>;
