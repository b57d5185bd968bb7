/**
 * @module scopes/names
 * The scope names alone, for code that needs no descriptions (an app bundle) and for the zod enum.
 */

/** Every scope name, in the spec's order (`SCOPES` describes each, in the same order). */
export const SCOPE_NAMES = [
  'conversations:read', 'decisions:read', 'calls:read', 'replies:write', 'notifications:write', 'blocks:write',
  'references:write', 'search:write', 'memories:write', 'decisions:write',
] as const;

export type Scope = (typeof SCOPE_NAMES)[number];
