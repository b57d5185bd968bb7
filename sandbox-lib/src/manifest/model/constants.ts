/**
 * @module manifest/model/constants
 * Closed lists of the manifest that deliveries carry too, as plain data (no zod).
 */

export const MESSAGE_ACTION_CONTEXTS = ['message', 'thread', 'conversation'] as const;
