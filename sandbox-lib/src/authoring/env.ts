/**
 * @module authoring/env
 * Environment variables: declared with a zod schema (or `secretEnv()`), listed in the manifest by
 * key only, and read once per environment object when deliveries arrive. `required` is computed
 * as the spec says: true for secrets and for schemas that reject `undefined`.
 */
import type { z } from 'zod';
import type { EnvVarDeclaration } from '../manifest/index.ts';
import { AppDefinitionError } from './errors.ts';
import { isZodSchema, parseWith, type Parsed } from './schema.ts';
import { read, str } from '../delivery/lean/check.ts';

/** The environment an app runs with: variables by name (strings, or what a zod env schema made of them). */
export type AppEnv = Readonly<Record<string, unknown>>;

/**
 * Variables the platform (or the self-hosted operator) provides to every app; apps do not declare them.
 * `PLATFORM_SIGNING_SECRET`: the app's signing secret (`whsec_…`; several separated by spaces or
 * commas during a rotation). `PLATFORM_API_URL`: the service's base URL for `/v0` calls.
 * @example await serve(app, { port: 8787, env: { [ENV_KEYS.signingSecret]: 'whsec_…', [ENV_KEYS.apiUrl]: 'https://platform.example.com' } })
 */
export const ENV_KEYS = { signingSecret: 'PLATFORM_SIGNING_SECRET', apiUrl: 'PLATFORM_API_URL' } as const;

const SECRET = Symbol.for('platform.authoring.secretEnv');

/** A secret variable (always required); its value is checked with `schema` when given, else it must be a non-empty string. */
export interface SecretEnv {
  readonly [SECRET]: true;
  readonly schema?: z.ZodType;
}

/**
 * Declares a secret environment variable.
 * @example defineApp({ ..., env: { STRIPE_KEY: secretEnv(), REGION: z.enum(['eu', 'us']).default('eu') } })
 */
export function secretEnv(schema?: z.ZodType): SecretEnv {
  return schema === undefined ? { [SECRET]: true } : { [SECRET]: true, schema };
}

/** A variable declaration: a zod schema of its value, `secretEnv()`, or flags written out. */
export type EnvDeclaration = z.ZodType | SecretEnv | { readonly secret?: boolean; readonly required?: boolean };

const isSecretEnv = (value: unknown): value is SecretEnv => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SECRET] === true;

/**
 * The manifest's `env` entries of the declarations, in declaration order.
 * @example envManifest({ API_KEY: secretEnv(), DEBUG: z.string().optional() })
 * // [{ key: 'API_KEY', secret: true, required: true }, { key: 'DEBUG', secret: false, required: false }]
 */
export function envManifest(declarations: Readonly<Record<string, EnvDeclaration>>): EnvVarDeclaration[] {
  return Object.entries(declarations).map(([key, declaration]) => {
    if ((Object.values(ENV_KEYS) as string[]).includes(key)) {
      throw new AppDefinitionError(['env', key], 'this variable is provided by the platform; do not declare it');
    }
    if (isSecretEnv(declaration)) return { key, secret: true, required: true };
    if (isZodSchema(declaration)) return { key, secret: false, required: !declaration.safeParse(undefined).success };
    if (typeof declaration === 'object' && declaration !== null) {
      const secret = declaration.secret === true;
      return { key, secret, required: secret || declaration.required === true };
    }
    throw new AppDefinitionError(['env', key], 'declare a variable with a zod schema, secretEnv() or { secret, required }');
  });
}

/** `secretEnv()` without a schema: a non-empty string, with the answers `z.string().min(1)` gives (the lean check mirrors it; no zod here). */
const NON_EMPTY = str(1);

/** One declared variable read by its declaration; `null` for flags-only declarations (nothing to read). */
function readVariable(declaration: EnvDeclaration, value: unknown): Parsed<unknown> | null {
  if (isSecretEnv(declaration) && declaration.schema === undefined) {
    const verdict = read(NON_EMPTY, value);
    return verdict.ok ? { ok: true, value } : { ok: false, message: verdict.message, path: [...verdict.path] };
  }
  const schema = isSecretEnv(declaration) ? declaration.schema : isZodSchema(declaration) ? declaration : undefined;
  return schema === undefined ? null : parseWith(schema, value);
}

export type EnvRead = { ok: true; env: AppEnv } | { ok: false; key: string; message: string };

const cache = new WeakMap<object, EnvRead>();

/**
 * The environment with each declared variable read by its schema (defaults and transforms
 * applied); undeclared variables pass through. Read once per environment object.
 * @example readEnv({ PORT: z.coerce.number() }, { PORT: '8080' }) // { ok: true, env: { PORT: 8080 } }
 */
export function readEnv(declarations: Readonly<Record<string, EnvDeclaration>>, raw: AppEnv): EnvRead {
  const cached = cache.get(raw);
  if (cached) return cached;
  const env: Record<string, unknown> = { ...raw };
  let result: EnvRead = { ok: true, env };
  for (const [key, declaration] of Object.entries(declarations)) {
    const parsed = readVariable(declaration, raw[key]);
    if (parsed === null) {
      const flags = declaration as { secret?: boolean; required?: boolean };
      if ((flags.secret || flags.required) && raw[key] === undefined) {
        result = { ok: false, key, message: 'required but not set' };
        break;
      }
      continue;
    }
    if (!parsed.ok) {
      result = { ok: false, key, message: raw[key] === undefined ? 'required but not set' : parsed.message };
      break;
    }
    if (parsed.value !== undefined) env[key] = parsed.value;
  }
  if (result.ok) Object.freeze(env);
  cache.set(raw, result);
  return result;
}
