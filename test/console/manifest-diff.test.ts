/**
 * The console's manifest diff (console/pages/manifest-diff.ts): one row per rule of how a list,
 * an object or a value compares, and the grouping by manifest key the Versions page draws.
 */
import { describe, expect, it } from 'vitest';
import { bySection, diffManifests } from '../../control-plane/src/console/pages/manifest-diff.ts';

const base = {
  schemaVersion: 1, name: 'Polls', slug: 'polls', hosting: 'self', endpoint: { url: 'https://polls.example.com/platform' },
  scopes: ['blocks:write'], egressHosts: ['api.example.com'], events: [],
  commands: [{ name: 'poll', description: 'Start a poll' }, { name: 'close', description: 'Close a poll' }],
  env: [{ key: 'TOKEN', secret: true, required: true }],
};

describe('diffManifests', () => {
  it.each([
    ['identical manifests', base, []],
    ['a scope added to a list of strings', { ...base, scopes: ['blocks:write', 'conversations:read'] }, [{ kind: 'added', path: ['scopes'], value: 'conversations:read' }]],
    ['an egress host replaced (order of a set ignored)', { ...base, egressHosts: ['hooks.example.com'] },
      [{ kind: 'added', path: ['egressHosts'], value: 'hooks.example.com' }, { kind: 'removed', path: ['egressHosts'], value: 'api.example.com' }]],
    ['an event added to an empty list', { ...base, events: ['post.created'] }, [{ kind: 'added', path: ['events'], value: 'post.created' }]],
    ['a command matched by name and changed', { ...base, commands: [{ name: 'close', description: 'Close a poll' }, { name: 'poll', description: 'Start a new poll' }] },
      [{ kind: 'changed', path: ['commands', 'poll', 'description'], before: 'Start a poll', after: 'Start a new poll' }]],
    ['a command removed, another added', { ...base, commands: [{ name: 'poll', description: 'Start a poll' }, { name: 'vote', description: 'Vote' }] },
      [{ kind: 'added', path: ['commands', 'vote'], value: { name: 'vote', description: 'Vote' } }, { kind: 'removed', path: ['commands', 'close'], value: { name: 'close', description: 'Close a poll' } }]],
    ['an env var matched by key', { ...base, env: [{ key: 'TOKEN', secret: false, required: true }] }, [{ kind: 'changed', path: ['env', 'TOKEN', 'secret'], before: true, after: false }]],
    ['a nested value changed', { ...base, endpoint: { url: 'https://polls.example.org/platform' } },
      [{ kind: 'changed', path: ['endpoint', 'url'], before: 'https://polls.example.com/platform', after: 'https://polls.example.org/platform' }]],
    ['a key added and a key removed', (({ egressHosts: _, ...rest }) => ({ ...rest, description: 'Polls for teams' }))(base),
      [{ kind: 'added', path: ['description'], value: 'Polls for teams' }, { kind: 'removed', path: ['egressHosts'], value: ['api.example.com'] }]],
  ] as const)('%s', (_name, after, expected) => {
    expect(diffManifests(base, after as Record<string, unknown>)).toEqual(expected);
  });

  it('compares lists of objects without a naming key item by item', () => {
    const before = { installConfig: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] } };
    const after = { installConfig: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['c'] }] } };
    expect(diffManifests(before, after)).toEqual([
      { kind: 'added', path: ['installConfig', 'anyOf', '1', 'required'], value: 'c' },
      { kind: 'removed', path: ['installConfig', 'anyOf', '1', 'required'], value: 'b' },
    ]);
  });

  it('groups changes by manifest key in the manifest\'s order, with labels', () => {
    const changes = diffManifests(base, { ...base, events: ['post.created'], scopes: ['blocks:write', 'conversations:read'], extra: 1 });
    expect(bySection(changes).map((s) => [s.key, s.label, s.changes.length])).toEqual([['scopes', 'Scopes', 1], ['events', 'Events', 1], ['extra', 'extra', 1]]);
  });
});
