/**
 * @module manifest/rules/command-options
 * The three command option rules: `choices` exactly on `choice` options, `objectKind` exactly on
 * `appObject` options (naming one of the app's reference kinds), required options first.
 */
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const commandOptionsRule: ManifestRule = (manifest) => {
  const kinds = new Set(manifest.references.map((r) => r.kind));
  for (const [i, command] of (manifest.commands ?? []).entries()) {
    let optionalSeen = false;
    for (const [j, option] of command.options.entries()) {
      const path = ['commands', i, 'options', j];
      const hasChoices = option.choices !== undefined && option.choices.length > 0;
      if (option.type === 'choice' && !hasChoices) {
        return manifestInvalid('command-option-choices', `The choice option "${option.name}" needs choices`, [...path, 'choices']);
      }
      if (option.type !== 'choice' && option.choices !== undefined) {
        return manifestInvalid('command-option-choices', `Only choice options take choices; "${option.name}" is ${option.type}`, [...path, 'choices']);
      }
      if (option.type === 'appObject') {
        if (option.objectKind === undefined) {
          return manifestInvalid('command-option-object-kind', `The appObject option "${option.name}" needs an objectKind`, [...path, 'objectKind']);
        }
        if (!kinds.has(option.objectKind)) {
          return manifestInvalid('command-option-object-kind', `"${option.objectKind}" is not one of the app's reference kinds`, [...path, 'objectKind']);
        }
      } else if (option.objectKind !== undefined) {
        return manifestInvalid('command-option-object-kind', `Only appObject options take an objectKind; "${option.name}" is ${option.type}`, [...path, 'objectKind']);
      }
      if (option.required && optionalSeen) {
        return manifestInvalid('command-option-order', `The required option "${option.name}" comes after an optional one; required options come first`, [...path, 'required']);
      }
      if (!option.required) optionalSeen = true;
    }
  }
  return null;
};
