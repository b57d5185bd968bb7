/**
 * @module console/pages/manifest-diff
 * What changed between two manifests, as a list of changes an author can read: a list of strings
 * (scopes, egress hosts, events, domains) compares as a set; a list of objects that all carry one
 * naming key (commands and actions by `name`, blocks by `type`, env by `key`, message actions by
 * `id`, references by `kind`) compares item by item under that name; objects compare key by key;
 * anything else that differs is a change from one value to the other. Pure: no HTML here.
 */

export type Segment = string;

export type Change =
  | { kind: 'added'; path: Segment[]; value: unknown }
  | { kind: 'removed'; path: Segment[]; value: unknown }
  | { kind: 'changed'; path: Segment[]; before: unknown; after: unknown };

/** Keys that name an item of a list, in the order they are tried. */
const NAMING_KEYS = ['id', 'name', 'type', 'key', 'kind'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

/** The key every item of both lists carries as a distinct string, if there is one. */
function namingKey(a: unknown[], b: unknown[]): string | null {
  for (const key of NAMING_KEYS) {
    const ok = (items: unknown[]) => items.every((i) => isObject(i) && typeof i[key] === 'string') && new Set(items.map((i) => (i as Record<string, unknown>)[key])).size === items.length;
    if (ok(a) && ok(b)) return key;
  }
  return null;
}

function diffLists(a: unknown[], b: unknown[], path: Segment[], out: Change[]): void {
  if (a.every(isScalar) && b.every(isScalar)) {
    for (const item of b) if (!a.some((x) => x === item)) out.push({ kind: 'added', path, value: item });
    for (const item of a) if (!b.some((x) => x === item)) out.push({ kind: 'removed', path, value: item });
    return;
  }
  const key = namingKey(a, b);
  if (key === null) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) diffValues(a[i], b[i], [...path, String(i)], out);
    return;
  }
  const byName = (items: unknown[]) => new Map(items.map((i) => [(i as Record<string, string>)[key]!, i]));
  const before = byName(a);
  const after = byName(b);
  for (const [name, item] of after) diffValues(before.get(name), item, [...path, name], out);
  for (const [name, item] of before) if (!after.has(name)) out.push({ kind: 'removed', path: [...path, name], value: item });
}

function diffValues(a: unknown, b: unknown, path: Segment[], out: Change[]): void {
  if (same(a, b)) return;
  if (a === undefined) out.push({ kind: 'added', path, value: b });
  else if (b === undefined) out.push({ kind: 'removed', path, value: a });
  else if (Array.isArray(a) && Array.isArray(b)) diffLists(a, b, path, out);
  else if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(b)) diffValues(a[k], b[k], [...path, k], out);
    for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) out.push({ kind: 'removed', path: [...path, k], value: a[k] });
  } else out.push({ kind: 'changed', path, before: a, after: b });
}

/**
 * @example
 * diffManifests({ scopes: ['blocks:write'] }, { scopes: ['blocks:write', 'conversations:read'] });
 * // [{ kind: 'added', path: ['scopes'], value: 'conversations:read' }]
 */
export function diffManifests(before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const out: Change[] = [];
  diffValues(before, after, [], out);
  return out;
}

/** What each top-level manifest key is called on the page. */
export const SECTION_LABELS: Record<string, string> = {
  schemaVersion: 'Manifest schema', name: 'Name', slug: 'Slug', description: 'Description', icon: 'Icon', hosting: 'Hosting',
  endpoint: 'Endpoint', scopes: 'Scopes', egressHosts: 'Egress hosts', domains: 'Domains', env: 'Environment variables',
  installConfig: 'Install config schema', blocks: 'Blocks', references: 'References', messageActions: 'Message actions',
  commands: 'Commands', events: 'Events', mcp: 'MCP server',
};

/** The changes grouped by the manifest key they fall under, in the manifest's order of keys. */
export function bySection(changes: readonly Change[]): Array<{ key: string; label: string; changes: Change[] }> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const key = change.path[0] ?? '';
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  const order = Object.keys(SECTION_LABELS);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([key, list]) => ({ key, label: SECTION_LABELS[key] ?? key, changes: list }));
}
