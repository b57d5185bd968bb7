/**
 * @module manifest/rules/duplicates
 * `duplicate`: ids that must be unique in their list. The spec's kinds (blocks, reference kinds,
 * actions, patterns, message actions, commands, options within one command) plus ours that would
 * be as ambiguous (sections, choice values, environment keys, MCP tools).
 */
import { manifestInvalid, type ManifestPath, type ManifestRule } from '../model/rule.ts';
import type { Manifest } from '../model/schemas.ts';

interface IdList {
  readonly what: string;
  readonly lists: (manifest: Manifest) => Array<{ path: ManifestPath; key: string; ids: readonly string[] }>;
}

const ID_LISTS: readonly IdList[] = [
  { what: 'block type', lists: (m) => [{ path: ['blocks'], key: 'type', ids: m.blocks.map((b) => b.type) }] },
  { what: 'action name', lists: (m) => m.blocks.map((b, i) => ({ path: ['blocks', i, 'actions'], key: 'name', ids: b.actions.map((a) => a.name) })) },
  { what: 'section name', lists: (m) => m.blocks.map((b, i) => ({ path: ['blocks', i, 'sections'], key: '', ids: b.sections })) },
  {
    what: 'choice value',
    lists: (m) => m.blocks.flatMap((b, i) => Object.entries(b.inputs).map(([name, input]) => ({ path: ['blocks', i, 'inputs', name, 'values'], key: '', ids: input.values }))),
  },
  { what: 'reference kind', lists: (m) => [{ path: ['references'], key: 'kind', ids: m.references.map((r) => r.kind) }] },
  { what: 'pattern id', lists: (m) => m.references.map((r, i) => ({ path: ['references', i, 'patterns'], key: 'id', ids: r.patterns.map((p) => p.id) })) },
  { what: 'message action id', lists: (m) => [{ path: ['messageActions'], key: 'id', ids: m.messageActions.map((a) => a.id) }] },
  { what: 'command name', lists: (m) => [{ path: ['commands'], key: 'name', ids: (m.commands ?? []).map((c) => c.name) }] },
  { what: 'option name', lists: (m) => (m.commands ?? []).map((c, i) => ({ path: ['commands', i, 'options'], key: 'name', ids: c.options.map((o) => o.name) })) },
  {
    what: 'choice value',
    lists: (m) => (m.commands ?? []).flatMap((c, i) => c.options.map((o, j) => ({ path: ['commands', i, 'options', j, 'choices'], key: 'value', ids: (o.choices ?? []).map((ch) => ch.value) }))),
  },
  { what: 'environment variable', lists: (m) => [{ path: ['env'], key: 'key', ids: m.env.map((e) => e.key) }] },
  { what: 'schedule name', lists: (m) => [{ path: ['schedules'], key: 'name', ids: (m.schedules ?? []).map((s) => s.name) }] },
  { what: 'MCP tool name', lists: (m) => [{ path: ['mcp', 'tools'], key: 'name', ids: (m.mcp?.tools ?? []).map((t) => t.name) }] },
];

export const duplicatesRule: ManifestRule = (manifest) => {
  for (const idList of ID_LISTS) {
    for (const list of idList.lists(manifest)) {
      const seen = new Set<string>();
      for (const [index, id] of list.ids.entries()) {
        if (seen.has(id)) {
          const path = list.key === '' ? [...list.path, index] : [...list.path, index, list.key];
          return manifestInvalid('duplicate', `The ${idList.what} "${id}" is used twice`, path);
        }
        seen.add(id);
      }
    }
  }
  return null;
};
