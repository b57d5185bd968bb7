/**
 * @module events
 * The spec's event table (`table.ts`) and the event names as a zod enum (`schema.ts`).
 */
export * from './table.ts';
export * from './schema.ts';
