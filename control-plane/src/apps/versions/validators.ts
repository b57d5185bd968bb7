/**
 * @module apps/versions/validators
 * ajv validators of a version's JSON Schemas (block props and state, action args and input, the
 * install config), compiled once per version and cached: versions never change, so `appId@version`
 * names the compiled set for good. Compiling also runs when a version is accepted, so a schema ajv
 * cannot compile is refused then (`reason: invalid`) rather than failing later in front of a member.
 *
 * Schemas and the values checked against them both come from apps, so validation must not let an
 * app stall the control plane: regular expressions run on RE2 (safe-regexp.ts), and the one format
 * whose fixed regular expression is quadratic (`url`) has a length cap.
 */
import { Ajv2020, type AnySchema, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { PlatformError, type Manifest } from '@platform/sdk';
import type { Db } from '../../core/db/db.ts';
import { findVersion } from './store.ts';
import { createVersionCache } from './version-cache.ts';
import { safeRegExp, UnsupportedPatternError } from './safe-regexp.ts';
import { findPatternPath } from './pattern-path.ts';
import { useLinearUniqueItems } from './unique-items.ts';

export interface VersionValidators {
  /** Block type → its props validator. */
  readonly props: ReadonlyMap<string, ValidateFunction>;
  readonly state: ReadonlyMap<string, ValidateFunction>;
  /** `blockType/actionName` → validator of the action's args (actions without `args` are absent). */
  readonly args: ReadonlyMap<string, ValidateFunction>;
  readonly input: ReadonlyMap<string, ValidateFunction>;
  readonly installConfig: ValidateFunction | null;
  /**
   * `value` with the `default`s of the block type's `field` schema filled in where it leaves them
   * out (ajv's `useDefaults`, on a copy; compiled on first use, once per type and field). For values
   * a person writes by hand (the playground's props and state), not for apps' answers, which are
   * checked as sent.
   */
  readonly withDefaults: (blockType: string, field: 'props' | 'state', value: Readonly<Record<string, unknown>>) => Record<string, unknown>;
}

export const actionKey = (blockType: string, action: string): string => `${blockType}/${action}`;

// ajv-formats is CommonJS; depending on the loader its default import is the plugin or its module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv2020) => void;

type SchemaPath = Array<string | number>;

/** ajv refused a schema of the manifest; `path` locates it. */
export class SchemaCompileError extends Error {
  readonly path: SchemaPath;
  constructor(path: SchemaPath, message: string) {
    super(message);
    this.name = 'SchemaCompileError';
    this.path = path;
  }
}

/**
 * ajv-formats' `url` regular expression backtracks quadratically (a 32 KB string takes about half a
 * second); URLs longer than this are not URLs anyone links to (the de facto browser limit), and
 * below it the worst case stays around a few milliseconds.
 */
export const MAX_URL_FORMAT_LENGTH = 2083;
const URL_FORMAT = fullFormats.url as RegExp;

/**
 * Compiles every schema of a manifest with one ajv instance of its own (dropped with the version's
 * cache entry). `strict: false`: app schemas may carry annotations ajv does not know; it also keeps
 * ajv from testing `patternProperties` against `properties` names with V8's RegExp at compile time
 * (strict mode's "matches pattern" check).
 */
/** One ajv for a version's app schemas: patterns on RE2, formats with the `url` cap, linear `uniqueItems`. */
function appSchemaAjv(options: { useDefaults: boolean }): Ajv2020 {
  // `logger: false`: ajv would print warnings about app schemas (unknown formats…) to the console.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: true, unicodeRegExp: true, code: { regExp: safeRegExp }, logger: false, useDefaults: options.useDefaults });
  addFormats(ajv);
  useLinearUniqueItems(ajv);
  ajv.addFormat('url', (value: string) => value.length <= MAX_URL_FORMAT_LENGTH && URL_FORMAT.test(value));
  return ajv;
}

/**
 * Fills defaults with validators of their own (`useDefaults` changes the value it checks, which the
 * checks of apps' answers must never do), compiled the first time a type's field is asked for.
 */
function defaultsFiller(blocks: Manifest['blocks']): VersionValidators['withDefaults'] {
  let ajv: Ajv2020 | undefined;
  const compiled = new Map<string, ValidateFunction | null>();
  return (blockType, field, value) => {
    const key = `${blockType}/${field}`;
    if (!compiled.has(key)) {
      const schema = blocks.find((b) => b.type === blockType)?.[field];
      ajv ??= appSchemaAjv({ useDefaults: true });
      // The version's own validators compiled this schema when it was accepted; null only for an unknown type.
      compiled.set(key, schema === undefined ? null : ajv.compile(schema as AnySchema));
    }
    const copy = structuredClone(value) as Record<string, unknown>;
    compiled.get(key)?.(copy);
    return copy;
  };
}

export function compileVersionValidators(manifest: Pick<Manifest, 'blocks' | 'installConfig'>): VersionValidators {
  const ajv = appSchemaAjv({ useDefaults: false });
  const compile = (schema: unknown, path: SchemaPath): ValidateFunction => {
    try {
      return ajv.compile(schema as AnySchema);
    } catch (err) {
      if (err instanceof UnsupportedPatternError) throw patternError(schema, path, err);
      throw new SchemaCompileError(path, `The JSON Schema does not compile: ${(err as Error).message.slice(0, 300)}`);
    }
  };
  const props = new Map<string, ValidateFunction>();
  const state = new Map<string, ValidateFunction>();
  const args = new Map<string, ValidateFunction>();
  const input = new Map<string, ValidateFunction>();
  manifest.blocks.forEach((block, b) => {
    props.set(block.type, compile(block.props, ['blocks', b, 'props']));
    state.set(block.type, compile(block.state, ['blocks', b, 'state']));
    block.actions.forEach((action, a) => {
      if (action.args !== undefined) args.set(actionKey(block.type, action.name), compile(action.args, ['blocks', b, 'actions', a, 'args']));
      if (action.input !== undefined) input.set(actionKey(block.type, action.name), compile(action.input, ['blocks', b, 'actions', a, 'input']));
    });
  });
  const installConfig = manifest.installConfig === undefined ? null : compile(manifest.installConfig, ['installConfig']);
  return { props, state, args, input, installConfig, withDefaults: defaultsFiller(manifest.blocks) };
}

/** A pattern RE2 cannot run, located in its schema (`…/properties/slug/pattern`) where it can be found. */
function patternError(schema: unknown, path: SchemaPath, err: UnsupportedPatternError): SchemaCompileError {
  const at = findPatternPath(schema, err.pattern);
  const where = at === null ? '' : ` at ${at.length === 0 ? '/' : at.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
  const shown = err.pattern.length > 100 ? `${err.pattern.slice(0, 100)}…` : err.pattern;
  return new SchemaCompileError([...path, ...(at ?? [])], `The JSON Schema's pattern ${JSON.stringify(shown)}${where} is refused: ${err.message.slice(0, 300)}`);
}

/** The 422 a manifest with an uncompilable schema gets when a version is accepted. */
export function schemaCompileToPlatformError(err: SchemaCompileError): PlatformError {
  return new PlatformError('PlatformAppManifestInvalidError', err.message, { path: err.path, fields: { reason: 'invalid' } });
}

export interface SchemaValidatorCache {
  /**
   * The compiled validators of a version (compiled on first use, then cached).
   * @example
   * const v = await validators.schemaValidators(appId, install.version);
   * if (!v.state.get(block.type)!(nextState)) throw …;
   */
  schemaValidators(appId: string, version: number): Promise<VersionValidators>;
  /** Puts a set compiled while accepting a version into the cache. */
  remember(appId: string, version: number, validators: VersionValidators): void;
}

/** At most `max` versions are kept compiled; the least recently used is dropped first. */
export function createSchemaValidatorCache(deps: { db: Db; max?: number }): SchemaValidatorCache {
  const cache = createVersionCache(async (appId, version) => {
    const row = await findVersion(deps.db, appId, version);
    if (row === undefined) throw new PlatformError('PlatformApiNotFoundError', `App ${appId} has no version ${version}`);
    try {
      return compileVersionValidators(row.manifest);
    } catch (err) {
      // Only a version accepted before a rule tightened gets here (a pattern RE2 cannot run):
      // its requests answer the same 422 a new version with that schema gets, not a 500.
      if (err instanceof SchemaCompileError) throw schemaCompileToPlatformError(err);
      throw err;
    }
  }, deps.max);
  return {
    schemaValidators: (appId, version) => cache.get(appId, version),
    remember: (appId, version, validators) => cache.set(appId, version, validators),
  };
}
