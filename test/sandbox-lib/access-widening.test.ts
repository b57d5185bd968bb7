// Versioning rule 8: one row per kind of added access, and the changes that do not widen.
import { describe, expect, it } from 'vitest';
import { ManifestSchema, accessWidening, type Manifest } from '@platform/sdk';
import { baseManifest, hints } from './manifest-fixtures.ts';

const v1 = (): Manifest => ManifestSchema.parse({
  ...baseManifest(),
  mcp: { url: 'https://mcp.example.com/mcp', auth: 'oauth', tools: [{ name: 'search', hints: hints(true) }, { name: 'file', hints: hints(false) }] },
  messageActions: [{ id: 'summarize', label: 'Summarize' }, { id: 'digest', label: 'Digest', context: 'conversation' }],
});
const next = (change: (m: any) => void): Manifest => {
  const manifest = structuredClone(v1());
  change(manifest);
  return manifest;
};

const widening: Array<[string, (m: any) => void, Array<{ kind: string; detail: string }>]> = [
  ['a scope', (m) => m.scopes.push('search:write'), [{ kind: 'scope', detail: 'search:write' }]],
  ['an outbound host', (m) => m.egressHosts.push('cdn.example.com'), [{ kind: 'egressHost', detail: 'cdn.example.com' }]],
  ['a domain', (m) => m.domains.push('example.org'), [{ kind: 'domain', detail: 'example.org' }]],
  ['an event', (m) => m.events.push('reply.created'), [{ kind: 'event', detail: 'reply.created' }]],
  ['a block action that is not read-only', (m) => m.blocks[0].actions.push({ name: 'reopen', hints: hints(false), scopes: [], agent: false }), [{ kind: 'blockAction', detail: 'poll/reopen (not read-only)' }]],
  ['a destructive block action', (m) => m.blocks[0].actions.push({ name: 'wipe', hints: { readOnly: true, destructive: true, idempotent: true }, scopes: [], agent: false }), [{ kind: 'blockAction', detail: 'poll/wipe (destructive)' }]],
  ['a read-only action that now writes', (m) => (m.blocks[0].actions[1].hints = hints(false)), [{ kind: 'blockAction', detail: 'poll/refresh (not read-only)' }]],
  ['an action that becomes destructive', (m) => (m.blocks[0].actions[1].hints = hints(false, true)), [{ kind: 'blockAction', detail: 'poll/refresh (destructive)' }]],
  ['a new block with a writing action', (m) => m.blocks.push({ ...structuredClone(m.blocks[0]), type: 'survey' }), [{ kind: 'blockAction', detail: 'survey/close (destructive)' }]],
  ['a message action', (m) => m.messageActions.push({ id: 'translate', label: 'Translate' }), [{ kind: 'messageAction', detail: 'translate (message)' }]],
  ['a context widened to thread', (m) => (m.messageActions[0].context = 'thread'), [{ kind: 'messageActionContext', detail: 'summarize (thread)' }]],
  ['a context widened from thread to conversation', (m) => { m.messageActions[0].context = 'conversation'; }, [{ kind: 'messageActionContext', detail: 'summarize (conversation)' }]],
  ['a changed MCP URL', (m) => (m.mcp.url = 'https://mcp2.example.com/mcp'), [{ kind: 'mcpUrl', detail: 'https://mcp2.example.com/mcp' }]],
  ['an MCP tool that is not read-only', (m) => m.mcp.tools.push({ name: 'delete', hints: hints(false) }), [{ kind: 'mcpTool', detail: 'delete (not read-only)' }]],
  ['an MCP tool that becomes destructive', (m) => (m.mcp.tools[1].hints = hints(false, true)), [{ kind: 'mcpTool', detail: 'file (destructive)' }]],
  ['a read-only MCP tool that now writes', (m) => (m.mcp.tools[0].hints = hints(false)), [{ kind: 'mcpTool', detail: 'search (not read-only)' }]],
];

const notWidening: Array<[string, (m: any) => void]> = [
  ['an identical manifest', () => {}],
  ['titles and descriptions', (m) => { m.name = 'Better polls'; m.description = 'New'; m.blocks[0].title = 'Vote'; m.blocks[0].description = 'Cast a vote'; m.references[0].title = 'Ticket'; }],
  ['layout: sections, inputs, schemas, staleness', (m) => { m.blocks[0].sections = ['a', 'b']; m.blocks[0].inputs = {}; m.blocks[0].props = true; m.blocks[0].staleAfter = 600; }],
  ['a read-only action', (m) => m.blocks[0].actions.push({ name: 'peek', hints: hints(true), scopes: [], agent: true })],
  ['an action that becomes read-only', (m) => (m.blocks[0].actions[0].hints = hints(true))],
  ['a destructive action that stops being destructive', (m) => (m.blocks[0].actions[0].hints = hints(false))],
  ['a narrowed message action context', (m) => (m.messageActions[1].context = 'thread')],
  ['message action labels', (m) => (m.messageActions[0].label = 'Sum up')],
  ['added or changed commands', (m) => { m.commands.push({ name: 'survey', description: 'x', options: [] }); m.commands[0].description = 'Other'; }],
  ['removed scopes, hosts, domains, events and actions', (m) => { m.scopes = []; m.egressHosts = []; m.domains = []; m.events = []; m.blocks = []; m.messageActions = []; }],
  ['a removed MCP server', (m) => { m.mcp = undefined; }],
  ['a read-only MCP tool', (m) => m.mcp.tools.push({ name: 'list', hints: hints(true) })],
];

describe('accessWidening', () => {
  it.each(widening)('adding %s widens', (_name, change, expected) => {
    expect(accessWidening(v1(), next(change))).toEqual(expected);
  });

  it('adding an MCP server widens by its URL and its tools that write', () => {
    expect(accessWidening(next((m) => { m.mcp = undefined; }), v1())).toEqual([
      { kind: 'mcpUrl', detail: 'https://mcp.example.com/mcp' },
      { kind: 'mcpTool', detail: 'file (not read-only)' },
    ]);
  });

  it.each(notWidening)('%s does not widen', (_name, change) => {
    expect(accessWidening(v1(), next(change))).toEqual([]);
  });

  it('lists every addition of one version', () => {
    const added = accessWidening(v1(), next((m) => { m.scopes.push('memories:write'); m.events.push('decision.updated'); m.domains.push('example.net'); }));
    expect(added.map((a) => a.kind)).toEqual(['scope', 'domain', 'event']);
  });
});
