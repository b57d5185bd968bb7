// The manifest computed from definitions (spec "Manifest", "Authentication" scopes): the sample
// app's manifest passes validateManifest, each computation rule holds (one row per rule), nothing
// of the app runs to compute it, and broken definitions throw named errors with a path.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  AppDefinitionError, AppManifestInvalidError, defineAction, defineApp, defineBlock, defineCommand, defineMcp, defineMessageAction, defineReference,
  defineTool, ENV_KEYS, secretEnv, silentLogger, validateManifest, type AppConfig, type Manifest,
} from '@platform/sdk';
import { counterApp, counterBlock } from '../../fixtures/apps/counter.ts';

const tree = { tree: { type: 'uiBlock' as const, attrs: { catalog: 1 as const, summary: 'x' } }, actions: {} };
const base = { name: 'Sample', slug: 'sample', hosting: 'platform' } as const;
const block = (actions: Record<string, object> = {}, type = 'note') =>
  defineBlock({ type, title: 'Note', props: {}, state: {}, actions: actions as never, render: () => tree });
const noop = () => undefined;
const build = (config: Partial<AppConfig>): Manifest => defineApp({ ...base, ...config } as AppConfig, { logger: silentLogger }).manifest;

describe('the sample app', () => {
  it('computes a manifest that validateManifest accepts', () => {
    const { manifest } = counterApp({ logger: silentLogger });
    const verdict = validateManifest(manifest);
    expect(verdict).toMatchObject({ valid: true });
    expect(manifest.blocks.map((b) => b.type)).toEqual(['counter']);
    expect(manifest.blocks[0]!.actions.map((a) => a.name)).toEqual(['increment', 'reset', 'set-step', 'slow-recount', 'find-owner', 'broken-answer', 'broken-state', 'throws']);
    expect(manifest.commands?.map((c) => c.name)).toEqual(['count', 'later']);
  });

  it('is what JSON.stringify(app) gives, and a block serializes to its fragment', () => {
    const app = counterApp({ logger: silentLogger });
    expect(JSON.parse(JSON.stringify(app))).toEqual(app.manifest);
    expect(JSON.parse(JSON.stringify(counterBlock))).toEqual(app.manifest.blocks[0]);
    expect(Object.isFrozen(app.manifest.blocks[0]!.actions)).toBe(true);
  });

  it('converts zod schemas to JSON Schema: props and args as accepted, state as stored', () => {
    const [counter] = counterApp({ logger: silentLogger }).manifest.blocks;
    expect(counter!.props).toMatchObject({ type: 'object', properties: { label: { type: 'string', default: 'Clicks' } } });
    expect(counter!.props).not.toHaveProperty('required');
    expect(counter!.state).toMatchObject({ type: 'object', required: ['count', 'step'], additionalProperties: false });
    expect(counter!.actions.find((a) => a.name === 'set-step')!.input).toMatchObject({ required: ['step'] });
  });
});

describe('computation rules (one row per rule)', () => {
  const rules: Array<{ rule: string; config: Partial<AppConfig>; check: (m: Manifest) => void }> = [
    {
      rule: 'scopes: union of the actions\' scopes, in the spec\'s order',
      config: { blocks: [block({ a: { scopes: ['search:write'], handler: noop }, b: { scopes: ['blocks:write', 'search:write'], handler: noop } })] },
      check: (m) => expect(m.scopes).toEqual(['blocks:write', 'search:write']),
    },
    {
      rule: 'scopes: each subscribed event adds its read scope; scope-free events add none',
      config: { events: { 'call.recapReady': noop, 'decision.updated': noop, 'app.installed': noop } },
      check: (m) => expect(m.scopes).toEqual(['decisions:read', 'calls:read']),
    },
    {
      rule: 'scopes: message actions add conversations:read',
      config: { messageActions: [defineMessageAction({ id: 'm', label: 'M', handler: () => ({ visibility: 'private' }) })] },
      check: (m) => expect(m.scopes).toEqual(['conversations:read']),
    },
    {
      rule: 'scopes: commands, reference kinds, event handlers and the app may declare scopes for their API calls',
      config: {
        commands: [defineCommand({ name: 'c', description: 'C', scopes: ['replies:write'], handler: () => ({ visibility: 'private' }) })],
        references: [defineReference({ kind: 'k', title: 'K', scopes: ['references:write'], resolve: () => ({ access: 'notFound' }) })],
        events: { 'block.created': { handler: noop, scopes: ['memories:write'] } },
        scopes: ['notifications:write'],
      },
      check: (m) => expect(m.scopes).toEqual(['replies:write', 'notifications:write', 'references:write', 'memories:write']),
    },
    {
      rule: 'scopes: routes contribute none',
      config: { routes: { 'POST /hook': () => new Response(null) } },
      check: (m) => expect(m.scopes).toEqual([]),
    },
    {
      rule: 'commands: left out when there are none',
      config: {},
      check: (m) => expect(m).not.toHaveProperty('commands'),
    },
    {
      rule: 'commands: listed with options in order, required written out',
      config: { commands: [defineCommand({ name: 'c', description: 'C', options: [{ name: 'q', type: 'string', description: 'Q', required: true }, { name: 'n', type: 'integer', description: 'N' }], handler: () => ({ visibility: 'private' }) })] },
      check: (m) => expect(m.commands).toEqual([{ name: 'c', description: 'C', options: [
        { name: 'q', description: 'Q', type: 'string', required: true },
        { name: 'n', description: 'N', type: 'integer', required: false },
      ] }]),
    },
    {
      rule: 'message action context: left out when message',
      config: { messageActions: [defineMessageAction({ id: 'm', label: 'M', context: 'message', handler: () => ({ visibility: 'private' }) })] },
      check: (m) => expect(m.messageActions).toEqual([{ id: 'm', label: 'M' }]),
    },
    {
      rule: 'message action context: kept when thread or conversation',
      config: { messageActions: [defineMessageAction({ id: 'm', label: 'M', context: 'conversation', handler: () => ({ visibility: 'private' }) })] },
      check: (m) => expect(m.messageActions).toEqual([{ id: 'm', label: 'M', context: 'conversation' }]),
    },
    {
      rule: 'env: required for secrets and for schemas that reject undefined; keys only',
      config: { env: { S: secretEnv(), R: z.string(), O: z.string().optional(), D: z.string().default('x'), F: { secret: false, required: true } } },
      check: (m) => expect(m.env).toEqual([
        { key: 'S', secret: true, required: true }, { key: 'R', secret: false, required: true }, { key: 'O', secret: false, required: false },
        { key: 'D', secret: false, required: false }, { key: 'F', secret: false, required: true },
      ]),
    },
    {
      rule: 'domains: each pattern host is claimed (wildcard dropped), without those another domain covers',
      config: {
        domains: ['example.com'],
        references: [defineReference({ kind: 'k', title: 'K', patterns: { a: 'https://docs.example.com/:p', b: 'https://*.other.org/x/:id' }, resolve: () => ({ access: 'notFound' }) })],
      },
      check: (m) => expect(m.domains).toEqual(['example.com', 'other.org']),
    },
    {
      rule: 'references: searchable follows search, hasBlock as declared, patterns in order',
      config: { references: [defineReference({ kind: 'k', title: 'K', patterns: [{ id: 'b', pattern: 'https://k.example.com/b/:id' }, { id: 'a', pattern: 'https://k.example.com/a/:id' }], search: () => [], resolve: () => ({ access: 'notFound' }) })] },
      check: (m) => expect(m.references).toEqual([{ kind: 'k', title: 'K', patterns: [{ id: 'b', pattern: 'https://k.example.com/b/:id' }, { id: 'a', pattern: 'https://k.example.com/a/:id' }], searchable: true, hasBlock: false }]),
    },
    {
      rule: 'actions: hints default false, written out; agent and scopes listed',
      config: { blocks: [block({ go: defineAction({ readOnly: true, agent: true, handler: noop }) })] },
      check: (m) => expect(m.blocks[0]!.actions).toEqual([{ name: 'go', hints: { readOnly: true, destructive: false, idempotent: false }, scopes: [], agent: true }]),
    },
    {
      rule: 'events: the subscribed names, in declaration order',
      config: { events: { 'block.removed': noop, 'post.created': noop } },
      check: (m) => expect(m.events).toEqual(['block.removed', 'post.created']),
    },
    {
      rule: 'mcp: url, auth and each tool\'s hints',
      config: { mcp: defineMcp({ url: 'https://mcp.example.com/mcp', auth: 'none', tools: [defineTool({ name: 't', destructive: true, handler: () => 'ok' })] }) },
      check: (m) => expect(m.mcp).toEqual({ url: 'https://mcp.example.com/mcp', auth: 'none', tools: [{ name: 't', hints: { readOnly: false, destructive: true, idempotent: false } }] }),
    },
    {
      rule: 'endpoint: a string becomes { url }',
      config: { hosting: 'self', endpoint: 'https://app.example.com/platform' },
      check: (m) => expect(m.endpoint).toEqual({ url: 'https://app.example.com/platform' }),
    },
  ];

  it.each(rules)('$rule', ({ config, check }) => {
    const manifest = build(config);
    check(manifest);
    expect(validateManifest(manifest).valid).toBe(true);
  });
});

describe('no app logic runs to compute the manifest', () => {
  it('defines without calling render, handlers, resolve or event handlers', () => {
    const spy = vi.fn();
    build({
      blocks: [defineBlock({ type: 'b', title: 'B', props: {}, state: {}, actions: { a: { handler: spy, search: spy } }, insert: spy, render: spy })],
      references: [defineReference({ kind: 'k', title: 'K', resolve: spy, search: spy })],
      commands: [defineCommand({ name: 'c', description: 'C', handler: spy })],
      events: { 'post.created': spy },
    });
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('named errors with a path', () => {
  const manifestErrors: Array<{ name: string; config: () => Partial<AppConfig>; reason: string; path: Array<string | number> }> = [
    { name: 'two blocks of one type', config: () => ({ blocks: [block({}, 'x'), block({}, 'x')] }), reason: 'duplicate', path: ['blocks', 1, 'type'] },
    { name: 'self-hosted without endpoint', config: () => ({ hosting: 'self' }), reason: 'endpoint-required', path: ['endpoint'] },
    { name: 'a slug starting with the service name', config: () => ({ slug: 'platform-x' }), reason: 'reserved-name', path: ['slug'] },
    {
      name: 'a recursive zod schema',
      config: () => {
        const node: z.ZodType = z.lazy(() => z.object({ children: z.array(node) }));
        return { blocks: [defineBlock({ type: 'tree', title: 'Tree', props: {}, state: z.object({ root: node }), render: () => tree })] };
      },
      reason: 'schema-too-complex',
      path: ['blocks', 0, 'state'],
    },
    { name: 'a command option of type appObject naming no kind', config: () => ({ commands: [defineCommand({ name: 'c', description: 'C', options: [{ name: 'o', type: 'appObject', description: 'O' }], handler: () => ({ visibility: 'private' }) })] }), reason: 'command-option-object-kind', path: ['commands', 0, 'options', 0, 'objectKind'] },
  ];

  it.each(manifestErrors)('$name → AppManifestInvalidError $reason', ({ config, reason, path }) => {
    let thrown: unknown;
    try {
      build(config());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppManifestInvalidError);
    expect((thrown as AppManifestInvalidError).reason).toBe(reason);
    expect((thrown as AppManifestInvalidError).path.slice(0, path.length)).toEqual(path);
    expect((thrown as Error).message).toContain(reason);
  });

  it('a pattern error is named as such', () => {
    expect(() => build({ references: [defineReference({ kind: 'k', title: 'K', patterns: { p: 'http://k.example.com/:id' }, resolve: () => ({ access: 'notFound' }) })] }))
      .toThrow(expect.objectContaining({ name: 'AppPatternInvalidError', reason: 'not-https', path: ['references', 0, 'patterns', 0, 'pattern'] }));
  });

  const definitionErrors: Array<{ name: string; run: () => unknown; path: Array<string | number> }> = [
    { name: 'a state zod cannot express', run: () => defineBlock({ type: 'd', title: 'D', props: {}, state: z.object({ at: z.date() }), render: () => tree }), path: ['blocks', 'd', 'state'] },
    { name: 'a block without render', run: () => defineBlock({ type: 'd', title: 'D', props: {}, state: {} } as never), path: ['blocks', 'd', 'render'] },
    { name: 'an action with neither handler nor search', run: () => block({ idle: { readOnly: true } }), path: ['blocks', 'note', 'actions', 'idle'] },
    { name: 'a plain object where defineBlock(...) belongs', run: () => build({ blocks: [{ type: 'x' } as never] }), path: ['blocks', 0] },
    { name: 'declaring the signing secret', run: () => build({ env: { [ENV_KEYS.signingSecret]: secretEnv() } }), path: ['env', ENV_KEYS.signingSecret] },
    { name: 'an unknown event name', run: () => build({ events: { 'post.exploded': noop } as never }), path: ['events', 'post.exploded'] },
    { name: 'a malformed route key', run: () => build({ routes: { 'FETCH /x': () => new Response(null) } }), path: ['routes', 'FETCH /x'] },
    { name: 'served MCP tools with auth but no authorize', run: () => defineMcp({ url: 'https://m.example.com/mcp', auth: 'platform', tools: [defineTool({ name: 't', handler: () => 'x' })] }), path: ['mcp', 'authorize'] },
  ];

  it.each(definitionErrors)('$name → AppDefinitionError', ({ run, path }) => {
    let thrown: unknown;
    try {
      run();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppDefinitionError);
    expect((thrown as AppDefinitionError).path).toEqual(path);
  });
});
