export * from './model/schemas.ts';
export { MANIFEST_INVALID_REASONS, PATTERN_INVALID_REASONS, type ManifestInvalidReason, type PatternInvalidReason } from './model/reasons.ts';
export { parseReferencePattern, matchReferencePattern, type ReferencePattern, type PatternSegment, type PatternParse } from './model/patterns.ts';
export type { ManifestContext, ManifestError, ManifestInvalidBody, PatternInvalidBody, ManifestPath } from './model/rule.ts';
export { validateManifest, manifestErrorToPlatformError, MANIFEST_RULES, type ManifestValidation } from './validate.ts';
export { requiredScopes, scopeNeeds, type ScopeNeed, type ScopedPieces } from './model/required-scopes.ts';
export { manifestSchemas } from './rules/schemas.ts';
export { accessWidening, type AccessWidening, type AccessWideningKind } from './access-widening.ts';
