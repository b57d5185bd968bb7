/**
 * @module authoring/manifest
 * The one place that knows the manifest's shape: `buildManifest` assembles it from the
 * definitions' fragments (no handler runs), computes `scopes`, `domains` and `env`, leaves
 * `commands` out when there are none, and checks the result with `validateManifest`, throwing
 * `AppManifestInvalidError` (reason and path as the service would answer) when a rule is broken
 * (except inside bundles `platform build` made, which the CLI and the service check instead).
 */
import { SCOPE_NAMES, type Scope } from '../scopes/index.ts';
import type { EventType } from '../events/index.ts';
import { requiredScopes, validateManifest, type Manifest } from '../manifest/index.ts';
import type { Block } from './block.ts';
import type { Command } from './command.ts';
import { envManifest, type EnvDeclaration } from './env.ts';
import { AppDefinitionError, AppManifestInvalidError } from './errors.ts';
import type { Mcp } from './mcp.ts';
import type { MessageAction } from './message-action.ts';
import type { Schedule } from './schedule.ts';
import type { Queue } from './queue.ts';
import { mergeDomains, referenceHandlers, type Reference } from './reference.ts';
import { toJsonSchema, type SchemaInput } from './schema.ts';

/**
 * `true` in bundles `platform build` makes (esbuild `define`); undeclared everywhere else. Named in
 * docs/decisions/authoring.md; `cli/src/bundle.ts` sets it.
 */
declare const __PLATFORM_BUNDLE__: true | undefined;

/** The app-level fields of a definition (what is not a piece with handlers). */
export interface AppIdentity {
  readonly name: string;
  readonly slug: string;
  /** `platform`: the service runs the bundle; `self`: the app runs at `endpoint`. */
  readonly hosting: 'self' | 'platform';
  readonly description?: string;
  /**
   * An uploaded asset id (`ast_…`, from `POST /v0/assets`), or the path of an image file beside the
   * app (`'icon.png'`), which `platform deploy` uploads and replaces with its id. Without it,
   * `platform deploy` uploads `icon.png` (or `.webp`, `.jpg`, `.jpeg`, `.gif`) when the project has one.
   */
  readonly icon?: string;
  /** A self-hosted app's delivery URL. */
  readonly endpoint?: string | { readonly url: string };
  /**
   * Hosted apps: hosts the code may call, on port 443 (`api.example.com`, `*.example.com`), or on the
   * one port written after them (`api.example.com:8443`, `*.example.com:8443`).
   */
  readonly egressHosts?: readonly string[];
  /** Link domains to claim beyond those the reference patterns need (they are added for you). */
  readonly domains?: readonly string[];
  readonly env?: Readonly<Record<string, EnvDeclaration>>;
  readonly installConfig?: SchemaInput;
  /** Scopes code outside the pieces needs (a route or job calling `/v0`); pieces declare their own. */
  readonly scopes?: readonly Scope[];
}

/** The pieces, already defined, with the scopes their handlers declared. */
export interface ManifestPieces {
  readonly blocks: readonly Block[];
  readonly references: readonly Reference[];
  readonly referenceScopes: readonly Scope[];
  readonly messageActions: readonly MessageAction[];
  readonly commands: readonly Command[];
  readonly invocationScopes: readonly Scope[];
  readonly events: ReadonlyMap<EventType, { readonly scopes: readonly Scope[] }>;
  readonly schedules?: readonly Schedule[];
  readonly queue?: Queue | undefined;
  readonly mcp?: Mcp;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * Computes and validates the manifest.
 * @example const manifest = buildManifest({ name: 'Polls', slug: 'polls', hosting: 'platform' }, pieces);
 */
export function buildManifest(identity: AppIdentity, pieces: ManifestPieces): Manifest {
  const blocks = pieces.blocks.map((block) => block.manifest);
  const messageActions = pieces.messageActions.map((action) => action.manifest);
  const events = [...pieces.events.keys()];
  const declared = new Set<Scope>([
    ...requiredScopes({ blocks, messageActions, events }),
    ...(identity.scopes ?? []),
    ...pieces.referenceScopes,
    ...pieces.invocationScopes,
    ...[...pieces.events.values()].flatMap((entry) => entry.scopes),
  ]);
  const references = pieces.references.map((reference) => reference.manifest);
  const endpoint = identity.endpoint === undefined ? undefined : typeof identity.endpoint === 'string' ? { url: identity.endpoint } : { url: identity.endpoint.url };

  const manifest: Manifest = {
    schemaVersion: 1,
    name: identity.name,
    slug: identity.slug,
    ...(identity.description !== undefined ? { description: identity.description } : {}),
    ...(identity.icon !== undefined ? { icon: identity.icon } : {}),
    hosting: identity.hosting,
    ...(endpoint ? { endpoint } : {}),
    // Unknown scope names stay in, so validateManifest names them instead of them vanishing here.
    scopes: [...SCOPE_NAMES.filter((scope) => declared.has(scope)), ...[...declared].filter((scope) => !SCOPE_NAMES.includes(scope))],
    egressHosts: [...(identity.egressHosts ?? [])],
    domains: mergeDomains(identity.domains ?? [], pieces.references.flatMap((reference) => referenceHandlers(reference)?.hosts ?? [])),
    env: envManifest(identity.env ?? {}),
    ...(identity.installConfig !== undefined ? { installConfig: toJsonSchema(identity.installConfig, 'input', ['installConfig']) } : {}),
    blocks,
    references,
    messageActions,
    ...(pieces.commands.length > 0 ? { commands: pieces.commands.map((command) => command.manifest) } : {}),
    events,
    ...(pieces.mcp ? { mcp: pieces.mcp.manifest } : {}),
    // Ours; left out when there are none, like `commands`.
    ...(pieces.schedules && pieces.schedules.length > 0 ? { schedules: pieces.schedules.map((schedule) => schedule.manifest) } : {}),
    ...(pieces.queue ? { queue: pieces.queue.manifest } : {}),
  };
  // In a bundle `platform build` made, the CLI checks the computed manifest right after building and
  // the service again on upload (with what only it knows), so the check is left to them: it would
  // put zod's manifest schemas and the public suffix list (~600 KB) in every hosted bundle and run
  // at every isolate's start. Everywhere else (Node, tests, other bundlers) it runs here.
  if (typeof __PLATFORM_BUNDLE__ === 'undefined') {
    const verdict = validateManifest(manifest);
    if (!verdict.valid) throw new AppManifestInvalidError(verdict.error);
  }
  // The computed object, not the validator's copy: it already lists every field the spec does.
  return deepFreeze(JSON.parse(JSON.stringify(manifest)) as Manifest);
}

/** Throws unless every entry of `list` is what `is` recognises (a plain object instead of `defineX(...)`). */
export function checkPieces<T>(list: readonly unknown[] | undefined, field: string, helper: string, is: (value: unknown) => boolean): T[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new AppDefinitionError([field], `a list of ${helper}(...)`);
  for (const [i, value] of list.entries()) if (!is(value)) throw new AppDefinitionError([field, i], `expected ${helper}(...)`);
  return [...list] as T[];
}
