/**
 * @module authoring/errors
 * The named errors of the authoring core. Definition mistakes are found when the app is defined
 * (module load), never while a member waits: `AppDefinitionError` for what the definition helpers
 * catch themselves, `AppManifestInvalidError` for what `validateManifest` refuses in the computed
 * manifest. Both say what is wrong and where (`path` into the manifest or the definition).
 */
import type { ManifestError } from '../manifest/index.ts';

export type DefinitionPath = ReadonlyArray<string | number>;

const showPath = (path: DefinitionPath): string => (path.length === 0 ? '(root)' : path.join('.'));

/**
 * A definition the authoring helpers cannot turn into a manifest (a handler that is not a
 * function, a zod schema JSON Schema cannot express, a malformed route key, ...).
 * @example
 * try { defineBlock({ type: 'poll', title: 'Poll', props: {}, state: z.date(), render }) }
 * catch (error) { if (error instanceof AppDefinitionError) console.error(error.path, error.message) }
 */
export class AppDefinitionError extends Error {
  readonly path: DefinitionPath;

  constructor(path: DefinitionPath, message: string, options?: { cause?: unknown }) {
    super(`${showPath(path)}: ${message}`, options);
    this.name = 'AppDefinitionError';
    this.path = path;
  }
}

/**
 * The computed manifest breaks a rule of the spec; `reason` and `path` are those of the
 * `PlatformAppManifestInvalidError` (or `PlatformAppPatternInvalidError`) the service would answer.
 * @example
 * try { defineApp({ name: 'Polls', slug: 'platform-polls', hosting: 'platform' }) }
 * catch (error) { if (error instanceof AppManifestInvalidError) error.reason // 'reserved-name' }
 */
export class AppManifestInvalidError extends Error {
  readonly reason: string;
  readonly path: DefinitionPath;
  /** The error body as the service would send it. */
  readonly body: ManifestError;

  constructor(body: ManifestError) {
    super(`${body.reason} at ${showPath(body.path)}: ${body.message}`);
    this.name = body._tag === 'PlatformAppPatternInvalidError' ? 'AppPatternInvalidError' : 'AppManifestInvalidError';
    this.reason = body.reason;
    this.path = body.path;
    this.body = body;
  }
}
