/**
 * @module manifest/rules/counts
 * Every count limit of the spec's Manifest table, as a table: where the list is, its cap, and the
 * reason answered when it is over (`too-many-patterns` is the spec's; the others are ours).
 */
import { LIMITS } from '../../limits/index.ts';
import type { ManifestInvalidReason } from '../model/reasons.ts';
import { manifestInvalid, type ManifestPath, type ManifestRule } from '../model/rule.ts';
import type { Manifest } from '../model/schemas.ts';

interface CountedList {
  readonly reason: ManifestInvalidReason;
  readonly max: number;
  readonly what: string;
  /** Every list of this kind in the manifest, with its path. */
  readonly lists: (manifest: Manifest) => Array<{ path: ManifestPath; length: number }>;
}

const M = LIMITS.manifest;
const top = (key: 'blocks' | 'references' | 'messageActions' | 'env' | 'egressHosts' | 'domains') =>
  (manifest: Manifest) => [{ path: [key], length: manifest[key].length }];

export const COUNTED_LISTS: readonly CountedList[] = [
  { reason: 'too-many-blocks', max: M.blocksPerApp, what: 'blocks', lists: top('blocks') },
  {
    reason: 'too-many-actions', max: M.actionsPerBlock, what: 'actions per block',
    lists: (m) => m.blocks.map((b, i) => ({ path: ['blocks', i, 'actions'], length: b.actions.length })),
  },
  {
    reason: 'too-many-sections', max: M.sectionsPerBlock, what: 'sections per block',
    lists: (m) => m.blocks.map((b, i) => ({ path: ['blocks', i, 'sections'], length: b.sections.length })),
  },
  {
    reason: 'too-many-values', max: LIMITS.blockTree.valuesPerChoiceInput, what: 'values per choice input',
    lists: (m) => m.blocks.flatMap((b, i) => Object.entries(b.inputs).map(([name, input]) => ({ path: ['blocks', i, 'inputs', name, 'values'], length: input.values.length }))),
  },
  { reason: 'too-many-references', max: M.referenceKindsPerApp, what: 'reference kinds', lists: top('references') },
  {
    reason: 'too-many-patterns', max: M.patternsPerKind, what: 'patterns per reference kind',
    lists: (m) => m.references.map((r, i) => ({ path: ['references', i, 'patterns'], length: r.patterns.length })),
  },
  { reason: 'too-many-message-actions', max: M.messageActions, what: 'message actions', lists: top('messageActions') },
  { reason: 'too-many-commands', max: M.commands, what: 'commands', lists: (m) => [{ path: ['commands'], length: m.commands?.length ?? 0 }] },
  {
    reason: 'too-many-options', max: M.optionsPerCommand, what: 'options per command',
    lists: (m) => (m.commands ?? []).map((c, i) => ({ path: ['commands', i, 'options'], length: c.options.length })),
  },
  {
    reason: 'too-many-choices', max: M.choicesPerOption, what: 'choices per option',
    lists: (m) => (m.commands ?? []).flatMap((c, i) => c.options.map((o, j) => ({ path: ['commands', i, 'options', j, 'choices'], length: o.choices?.length ?? 0 }))),
  },
  { reason: 'too-many-env', max: M.envVarsPerEnvironment, what: 'environment variables', lists: top('env') },
  { reason: 'too-many-egress-hosts', max: M.outboundHosts, what: 'outbound hosts', lists: top('egressHosts') },
  { reason: 'too-many-domains', max: M.claimedDomains, what: 'claimed domains', lists: top('domains') },
  { reason: 'too-many-schedules', max: LIMITS.schedules.perApp, what: 'schedules', lists: (m) => [{ path: ['schedules'], length: m.schedules?.length ?? 0 }] },
];

export const countsRule: ManifestRule = (manifest) => {
  for (const counted of COUNTED_LISTS) {
    for (const list of counted.lists(manifest)) {
      if (list.length > counted.max) {
        return manifestInvalid(counted.reason, `At most ${counted.max} ${counted.what}; found ${list.length}`, list.path);
      }
    }
  }
  return null;
};
