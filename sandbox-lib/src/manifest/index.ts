export * from './schemas.ts';
export { MANIFEST_INVALID_REASONS, PATTERN_INVALID_REASONS, type ManifestInvalidReason, type PatternInvalidReason } from './reasons.ts';
export { parseReferencePattern, matchReferencePattern, type ReferencePattern, type PatternSegment, type PatternParse } from './patterns.ts';
export type { ManifestContext, ManifestError, ManifestInvalidBody, PatternInvalidBody, ManifestPath } from './rule.ts';
export { validateManifest, manifestErrorToPlatformError, MANIFEST_RULES, type ManifestValidation } from './validate.ts';
export { requiredScopes, scopeNeeds, type ScopeNeed, type ScopedPieces } from './required-scopes.ts';
export { manifestSchemas } from './rules/schemas.ts';
export { accessWidening, type AccessWidening, type AccessWideningKind } from './access-widening.ts';
