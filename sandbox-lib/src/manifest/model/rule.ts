/**
 * @module manifest/model/rule
 * What a manifest rule is: a pure function of the parsed manifest and what the service knows,
 * answering the first problem it finds (the spec's error body) or `null`.
 */
import type { Manifest } from './schemas.ts';
import type { ManifestInvalidReason, PatternInvalidReason } from './reasons.ts';

export type ManifestPath = Array<string | number>;

/**
 * What only the service knows. Each rule that needs a piece runs only when that piece is given, so
 * an app author can run `validateManifest` locally without it.
 */
export interface ManifestContext {
  /** The app's slug on record (`slug-mismatch`). */
  readonly recordedSlug?: string;
  /** The app's hosting on record (`hosting-mismatch`). */
  readonly recordedHosting?: 'self' | 'platform';
  /** The app owner's verified domains (`mcp-host-unverified`). */
  readonly verifiedDomains?: readonly string[];
  /** Environment variables that have a value in the target environment (`env-missing`); only keys matter. */
  readonly envValues?: Readonly<Record<string, string>>;
  /** The service's own domains (`reserved-domain`). */
  readonly reservedDomains?: readonly string[];
  /** Reserved app names and slugs, compared case-insensitively (`reserved-name`). */
  readonly reservedNames?: readonly string[];
  /** The service's own name; slugs may not start with it. Default `platform`. */
  readonly serviceName?: string;
  /** The hosted-app domain: an MCP server on the app's own subdomain of it needs no verified domain. */
  readonly hostedAppDomain?: string;
  /** A private app's MCP host needs no verified domain. */
  readonly appPrivate?: boolean;
}

export interface ManifestInvalidBody {
  readonly _tag: 'PlatformAppManifestInvalidError';
  readonly reason: ManifestInvalidReason;
  readonly message: string;
  readonly path: ManifestPath;
}

export interface PatternInvalidBody {
  readonly _tag: 'PlatformAppPatternInvalidError';
  readonly reason: PatternInvalidReason;
  readonly message: string;
  readonly path: ManifestPath;
}

export type ManifestError = ManifestInvalidBody | PatternInvalidBody;

export type ManifestRule = (manifest: Manifest, context: ManifestContext) => ManifestError | null;

export const manifestInvalid = (reason: ManifestInvalidReason, message: string, path: ManifestPath): ManifestInvalidBody =>
  ({ _tag: 'PlatformAppManifestInvalidError', reason, message, path });

export const patternInvalid = (reason: PatternInvalidReason, message: string, path: ManifestPath): PatternInvalidBody =>
  ({ _tag: 'PlatformAppPatternInvalidError', reason, message, path });
