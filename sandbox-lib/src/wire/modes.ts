/**
 * @module wire/modes
 * The two reading modes of the contract (spec Versioning 2-4). Requests are strict: unknown fields
 * and unknown closed-list values are rejected. Responses (of `/v0`, deliveries read by apps, and
 * the answers apps give to deliveries) are lenient: unknown fields are ignored and an unknown
 * closed-list value reads as the most neutral option. Shapes used in both directions (an
 * invocation answer is a delivery answer and a `/v0` request body) are built once per mode.
 */
import { z } from 'zod';
import { lenientEnum } from './lenient.ts';

export interface Wire {
  readonly mode: 'request' | 'response';
  object<S extends z.ZodRawShape>(shape: S): z.ZodObject<S>;
  closed<const T extends readonly [string, ...string[]]>(values: T, neutral: T[number]): z.ZodType<T[number]>;
}

export const REQUEST: Wire = {
  mode: 'request',
  object: (shape) => z.strictObject(shape) as never,
  closed: (values) => z.enum(values) as never,
};

export const RESPONSE: Wire = {
  mode: 'response',
  object: (shape) => z.looseObject(shape) as never,
  closed: (values, neutral) => lenientEnum(values, neutral) as never,
};
