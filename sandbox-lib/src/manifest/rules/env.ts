/**
 * @module manifest/rules/env
 * `env-missing`: every required variable has a value in the target environment. Runs only when
 * the service says which variables have values (`context.envValues`).
 */
import { manifestInvalid, type ManifestRule } from '../model/rule.ts';

export const envRule: ManifestRule = (manifest, context) => {
  const values = context.envValues;
  if (values === undefined) return null;
  for (const [i, variable] of manifest.env.entries()) {
    if (variable.required && !Object.hasOwn(values, variable.key)) {
      return manifestInvalid('env-missing', `The required environment variable ${variable.key} has no value in the target environment`, ['env', i, 'key']);
    }
  }
  return null;
};
