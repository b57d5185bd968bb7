/**
 * @module authoring/reference
 * `defineReference`: a reference kind (URL patterns that turn links into shared objects) with its
 * `resolve` handler, an optional `search`, and optional `actions` for the buttons of its cards'
 * blocks (a member's click arrives as `block.action` with `data.block.reference`). `searchable`
 * follows from `search`; the claimed link domains follow from the pattern hosts (see
 * `patternDomains`).
 */
import type { ReferenceDefinition } from '../manifest/index.ts';
import { parseReferencePattern } from '../manifest/index.ts';
import { hostCovers } from '../hosts/index.ts';
import { LIMITS } from '../limits/index.ts';
import { AppDefinitionError } from './errors.ts';
import { referenceAction, referenceResolve, referenceSearch } from './interactive-references.ts';
import { referenceResolveResult, referenceSearchResult } from '../delivery/lean/interactive-pieces.ts';
import type { ReferenceHandlers } from './tables.ts';
import type { ReferenceActionHandler, ReferenceConfig } from './piece-types.ts';

export type {
  ReferenceActionContext, ReferenceActionHandler, ReferenceActionOutput, ReferenceConfig, ReferenceItem, ReferenceSearchContext, ReferenceSearchItem, ResolutionOutput,
  ResolveContext,
} from './piece-types.ts';

const REFERENCE = Symbol.for('platform.authoring.reference');
const HANDLERS = Symbol.for('platform.authoring.referenceHandlers');

/** The deliveries of reference kinds, run by `defineApp` through the definitions (see absent-pieces.ts). */
const RUNNERS = {
  'reference.resolve': { run: referenceResolve, result: referenceResolveResult },
  'reference.search': { run: referenceSearch, result: referenceSearchResult },
} as const;

export interface Reference {
  readonly [REFERENCE]: true;
  readonly kind: string;
  readonly manifest: ReferenceDefinition;
  readonly [HANDLERS]: ReferenceHandlers;
  toJSON(): ReferenceDefinition;
}

/**
 * Defines a reference kind.
 * @example
 * const issue = defineReference({
 *   kind: 'issue', title: 'Issue',
 *   patterns: { issue: 'https://tracker.example.com/:org/issues/:id' },
 *   resolve: async ({ params, api }) => ({ access: 'granted', visibility: 'public', externalId: params.id!, title: `Issue ${params.id}`, summary: 'Open' }),
 * });
 */
export function defineReference(config: ReferenceConfig): Reference {
  const where = ['references', typeof config?.kind === 'string' ? config.kind : '?'];
  if (typeof config?.resolve !== 'function') throw new AppDefinitionError([...where, 'resolve'], 'every reference kind needs a resolve function');
  if (config.search !== undefined && typeof config.search !== 'function') throw new AppDefinitionError([...where, 'search'], 'must be a function');
  const actions = actionsOf(config, where);
  const patterns = Array.isArray(config.patterns)
    ? config.patterns.map(({ id, pattern }) => ({ id, pattern }))
    : Object.entries(config.patterns ?? {}).map(([id, pattern]) => ({ id, pattern: pattern as string }));
  const manifest: ReferenceDefinition = {
    kind: config.kind,
    title: config.title,
    patterns,
    searchable: config.search !== undefined,
    hasBlock: config.hasBlock === true,
  };
  const reference = { [REFERENCE]: true as const, kind: config.kind, manifest, toJSON: () => manifest };
  // Hosts are read here, not in buildManifest, so an app without reference kinds bundles no pattern parser.
  const hosts = patternHosts(patterns.map(({ pattern }) => pattern));
  Object.defineProperty(reference, HANDLERS, {
    value: { resolve: config.resolve, search: config.search, actions, runAction: referenceAction, scopes: [...(config.scopes ?? [])], hosts, runners: RUNNERS },
    enumerable: false,
  });
  return Object.freeze(reference) as Reference;
}

/** The card actions of a kind, checked: functions under action names, and only for kinds with blocks. */
function actionsOf(config: ReferenceConfig, where: string[]): Map<string, ReferenceActionHandler> {
  const entries = Object.entries(config.actions ?? {});
  if (entries.length > 0 && config.hasBlock !== true) throw new AppDefinitionError([...where, 'actions'], 'card actions need hasBlock: true');
  for (const [name, handler] of entries) {
    if (!LIMITS.identifiers.actionName.test(name)) throw new AppDefinitionError([...where, 'actions', name], 'action names are 1 to 64 characters from a-z, 0-9, _, . and -');
    if (typeof handler !== 'function') throw new AppDefinitionError([...where, 'actions', name], 'must be a function');
  }
  return new Map(entries);
}

/** The handlers of a defined reference kind, or `undefined`. */
export function referenceHandlers(value: unknown): ReferenceHandlers | undefined {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REFERENCE] === true ? (value as Reference)[HANDLERS] : undefined;
}

/** The host of each well-formed pattern, in order; a malformed one is skipped (validateManifest reports it). */
function patternHosts(patterns: readonly string[]): string[] {
  return patterns.flatMap((source) => {
    const parsed = parseReferencePattern(source);
    return parsed.ok ? [parsed.pattern.host] : [];
  });
}

/**
 * The link domains to claim: the explicit ones plus each of `hosts` not listed yet, without those
 * another listed domain already covers.
 * @example mergeDomains(['example.com'], ['docs.example.com', 'other.org']) // ['example.com', 'other.org']
 */
export function mergeDomains(explicit: readonly string[], hosts: readonly string[]): string[] {
  const all: string[] = [...explicit];
  for (const host of hosts) if (!all.includes(host)) all.push(host);
  return all.filter((domain, i) => explicit.includes(domain) || !all.some((other, j) => j !== i && other !== domain && hostCovers(other, domain)));
}

/**
 * The link domains to claim: the explicit ones plus each pattern's host (`*.` dropped), without
 * those another listed domain already covers. A malformed pattern is skipped here and reported by
 * `validateManifest`.
 * @example patternDomains(['example.com'], ['https://docs.example.com/:p', 'https://*.other.org/x']) // ['example.com', 'other.org']
 */
export function patternDomains(explicit: readonly string[], patterns: readonly string[]): string[] {
  return mergeDomains(explicit, patternHosts(patterns));
}
