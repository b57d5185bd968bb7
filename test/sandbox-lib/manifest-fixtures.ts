// A small valid manifest to vary in table-driven tests: one change per row, so each row fails for
// exactly the rule it names.
import type { ManifestInput } from '@platform/sdk';

export const hints = (readOnly: boolean, destructive = false) => ({ readOnly, destructive, idempotent: readOnly });

export function baseManifest(): ManifestInput & Record<string, unknown> {
  return {
    schemaVersion: 1,
    name: 'Polls',
    slug: 'polls',
    hosting: 'platform',
    scopes: ['blocks:write', 'conversations:read'],
    egressHosts: ['api.example.com'],
    domains: ['example.com'],
    env: [{ key: 'API_KEY', secret: true, required: true }],
    blocks: [{
      type: 'poll',
      title: 'Poll',
      insertable: true,
      reopenable: false,
      props: { type: 'object', properties: { question: { type: 'string' } } },
      state: { type: 'object', properties: { open: { type: 'boolean' } } },
      inputs: { vote: { kind: 'choice', values: ['yes', 'no'] } },
      sections: ['results'],
      actions: [
        { name: 'close', hints: hints(false, true), scopes: ['blocks:write'], agent: false },
        { name: 'refresh', hints: hints(true), scopes: [], agent: true },
      ],
    }],
    references: [{ kind: 'issue', title: 'Issue', patterns: [{ id: 'issue', pattern: 'https://example.com/:org/issues/:id' }], searchable: true, hasBlock: false }],
    messageActions: [{ id: 'summarize', label: 'Summarize' }],
    commands: [{
      name: 'poll',
      description: 'Start a poll',
      options: [
        { name: 'question', description: 'What to ask', type: 'string', required: true },
        { name: 'kind', description: 'Kind', type: 'choice', required: false, choices: [{ value: 'single', label: 'Single' }] },
        { name: 'issue', description: 'Issue', type: 'appObject', required: false, objectKind: 'issue' },
      ],
    }],
    events: ['post.created', 'app.installed'],
  };
}

/** A copy of the base manifest with `change` applied to it. */
export function manifestWith(change: (manifest: any) => void): Record<string, unknown> {
  const manifest = structuredClone(baseManifest());
  change(manifest);
  return manifest;
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);
