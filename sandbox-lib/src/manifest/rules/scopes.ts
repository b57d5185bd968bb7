/**
 * @module manifest/rules/scopes
 * `scope-undeclared`: the manifest's `scopes` contain every scope its pieces need.
 */
import { scopeNeeds } from '../model/required-scopes.ts';
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const scopesRule: ManifestRule = (manifest) => {
  const declared = new Set(manifest.scopes);
  for (const need of scopeNeeds(manifest)) {
    if (!declared.has(need.scope)) {
      return manifestInvalid('scope-undeclared', `The ${need.by} needs the scope ${need.scope}, which scopes does not list`, need.path);
    }
  }
  return null;
};
