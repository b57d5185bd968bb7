/**
 * @module scopes/schema
 * The scope names as a zod enum, apart from the table so that code reading the table needs no zod.
 */
import { z } from 'zod';
import { SCOPE_NAMES } from './names.ts';

export const ScopeSchema = z.enum(SCOPE_NAMES);
