// One failing and one passing row per reason of the spec's manifest table (and ours).
import { describe, expect, it } from 'vitest';
import { MANIFEST_INVALID_REASONS, validateManifest, type ManifestContext } from '@platform/sdk';
import { baseManifest, hints, manifestWith } from './manifest-fixtures.ts';

type Row = [name: string, change: (m: any) => void, context: ManifestContext | undefined, expected: string | null, path?: Array<string | number>];

const rows: Row[] = [
  // duplicate: every kind of id of the spec.
  ['duplicate block types', (m) => m.blocks.push(structuredClone(m.blocks[0])), undefined, 'duplicate', ['blocks', 1, 'type']],
  ['distinct block types', (m) => m.blocks.push({ ...structuredClone(m.blocks[0]), type: 'poll-2' }), undefined, null],
  ['duplicate reference kinds', (m) => m.references.push({ ...structuredClone(m.references[0]) }), undefined, 'duplicate', ['references', 1, 'kind']],
  ['duplicate action names', (m) => m.blocks[0].actions.push(structuredClone(m.blocks[0].actions[1])), undefined, 'duplicate', ['blocks', 0, 'actions', 2, 'name']],
  ['same action name in two blocks', (m) => m.blocks.push({ ...structuredClone(m.blocks[0]), type: 'other' }), undefined, null],
  ['duplicate pattern ids', (m) => m.references[0].patterns.push({ id: 'issue', pattern: 'https://example.com/:org/pulls/:id' }), undefined, 'duplicate', ['references', 0, 'patterns', 1, 'id']],
  ['distinct pattern ids', (m) => m.references[0].patterns.push({ id: 'pull', pattern: 'https://example.com/:org/pulls/:id' }), undefined, null],
  ['duplicate message action ids', (m) => m.messageActions.push({ id: 'summarize', label: 'Again' }), undefined, 'duplicate', ['messageActions', 1, 'id']],
  ['duplicate command names', (m) => m.commands.push({ name: 'poll', description: 'Again', options: [] }), undefined, 'duplicate', ['commands', 1, 'name']],
  ['duplicate option names in one command', (m) => m.commands[0].options.push({ name: 'question', description: 'x', type: 'string', required: false }), undefined, 'duplicate', ['commands', 0, 'options', 3, 'name']],
  ['same option name in two commands', (m) => m.commands.push({ name: 'ask', description: 'Ask', options: [{ name: 'question', description: 'x', type: 'string', required: true }] }), undefined, null],
  ['duplicate environment keys', (m) => m.env.push({ key: 'API_KEY', secret: false, required: false }), undefined, 'duplicate', ['env', 1, 'key']],
  ['duplicate sections', (m) => m.blocks[0].sections.push('results'), undefined, 'duplicate', ['blocks', 0, 'sections', 1]],

  // The three command option rules.
  ['choice option without choices', (m) => delete m.commands[0].options[1].choices, undefined, 'command-option-choices'],
  ['choice option with empty choices', (m) => (m.commands[0].options[1].choices = []), undefined, 'command-option-choices'],
  ['choices on a string option', (m) => (m.commands[0].options[0].choices = [{ value: 'a', label: 'A' }]), undefined, 'command-option-choices'],
  ['appObject option without objectKind', (m) => delete m.commands[0].options[2].objectKind, undefined, 'command-option-object-kind'],
  ['appObject option with an unknown kind', (m) => (m.commands[0].options[2].objectKind = 'ticket'), undefined, 'command-option-object-kind'],
  ['objectKind on a string option', (m) => (m.commands[0].options[0].objectKind = 'issue'), undefined, 'command-option-object-kind'],
  ['required option after an optional one', (m) => (m.commands[0].options[2].required = true), undefined, 'command-option-order', ['commands', 0, 'options', 2, 'required']],
  ['all options required, in order', (m) => m.commands[0].options.forEach((o: any) => (o.required = true)), undefined, null],

  // Endpoint and hosting.
  ['self-hosted without endpoint', (m) => { m.hosting = 'self'; m.egressHosts = []; }, undefined, 'endpoint-required', ['endpoint']],
  ['self-hosted with endpoint', (m) => { m.hosting = 'self'; m.egressHosts = []; m.endpoint = { url: 'https://polls.example.com/platform' }; }, undefined, null],
  ['self-hosted dev endpoint on localhost', (m) => { m.hosting = 'self'; m.egressHosts = []; m.endpoint = { url: 'http://localhost:3000/platform' }; }, undefined, null],
  ['hosted with endpoint', (m) => (m.endpoint = { url: 'https://polls.example.com/platform' }), undefined, 'endpoint-unexpected', ['endpoint']],
  ['self-hosted with outbound hosts', (m) => { m.hosting = 'self'; m.endpoint = { url: 'https://polls.example.com/' }; }, undefined, 'egress-unexpected'],
  ['hosting differs from the record', () => {}, { recordedHosting: 'self' }, 'hosting-mismatch', ['hosting']],
  ['hosting as recorded', () => {}, { recordedHosting: 'platform' }, null],
  ['slug differs from the record', () => {}, { recordedSlug: 'votes' }, 'slug-mismatch', ['slug']],
  ['slug as recorded', () => {}, { recordedSlug: 'polls' }, null],

  // Scopes.
  ['action scope not declared', (m) => (m.scopes = ['conversations:read']), undefined, 'scope-undeclared', ['blocks', 0, 'actions', 0, 'scopes', 0]],
  ['event scope not declared', (m) => { m.scopes = ['blocks:write', 'conversations:read']; m.events.push('call.recapReady'); }, undefined, 'scope-undeclared', ['events', 2]],
  ['event scope declared', (m) => { m.scopes.push('calls:read'); m.events.push('call.recapReady'); }, undefined, null],
  ['message actions without conversations:read', (m) => { m.scopes = ['blocks:write']; m.events = ['app.installed']; }, undefined, 'scope-undeclared', ['messageActions']],
  ['no message actions, no read scope needed', (m) => { m.scopes = ['blocks:write']; m.events = ['app.installed']; m.messageActions = []; }, undefined, null],

  // Hosts and domains.
  ['claimed domain is a public suffix', (m) => (m.domains = ['co.uk']), undefined, 'public-suffix-host', ['domains', 0]],
  ['claimed domain is a private-section suffix', (m) => m.domains.push('github.io'), undefined, 'public-suffix-host', ['domains', 1]],
  ['claimed domain under a public suffix', (m) => m.domains.push('example.co.uk'), undefined, null],
  ['outbound wildcard over a public suffix', (m) => m.egressHosts.push('*.github.io'), undefined, 'public-suffix-host', ['egressHosts', 1]],
  ['outbound wildcard under a registrable domain', (m) => m.egressHosts.push('*.example.org'), undefined, null],
  ['pattern wildcard over a public suffix', (m) => { m.domains.push('acme.github.io'); m.references[0].patterns[0].pattern = 'https://*.github.io/:id'; }, undefined, 'public-suffix-host'],
  ['claimed domain covering the service', (m) => m.domains.push('platform.test'), { reservedDomains: ['api.platform.test'] }, 'reserved-domain', ['domains', 1]],
  ['outbound host under the service', (m) => m.egressHosts.push('api.platform.test'), { reservedDomains: ['platform.test'] }, 'reserved-domain', ['egressHosts', 1]],
  ['outbound host near but not under the service', (m) => m.egressHosts.push('notplatform.test'), { reservedDomains: ['platform.test'] }, null],
  ['claimed domain under the service', (m) => { m.domains.push('links.platform.test'); }, { reservedDomains: ['platform.test'] }, 'reserved-domain', ['domains', 1]],
  ['no overlap with the service', () => {}, { reservedDomains: ['platform.test'] }, null],

  // Names.
  ['slug starting with the service name', (m) => (m.slug = 'platform-polls'), undefined, 'reserved-name', ['slug']],
  ['slug starting with a configured service name', (m) => (m.slug = 'acme-polls'), { serviceName: 'acme' }, 'reserved-name', ['slug']],
  ['reserved slug', (m) => (m.slug = 'admin'), { reservedNames: ['Admin'] }, 'reserved-name', ['slug']],
  ['reserved name', (m) => (m.name = 'SUPPORT'), { reservedNames: ['support'] }, 'reserved-name', ['name']],
  ['name with a space at an edge', (m) => (m.name = ' Support '), {}, 'invalid', ['name']],
  ['name with an escape sequence', (m) => (m.name = 'Polls\u001b[2J'), {}, 'invalid', ['name']],
  ['name and slug not reserved', () => {}, { reservedNames: ['admin', 'support'] }, null],

  // Environment.
  ['required variable without a value', () => {}, { envValues: {} }, 'env-missing', ['env', 0, 'key']],
  ['required variable with a value', () => {}, { envValues: { API_KEY: 'k' } }, null],
  ['optional variable without a value', (m) => m.env.push({ key: 'DEBUG', secret: false, required: false }), { envValues: { API_KEY: 'k' } }, null],

  // MCP host.
  ['MCP host not verified', (m) => (m.mcp = { url: 'https://mcp.example.net/mcp', auth: 'none' }), { verifiedDomains: ['example.com'] }, 'mcp-host-unverified', ['mcp', 'url']],
  ['MCP host under a verified domain', (m) => (m.mcp = { url: 'https://mcp.example.com/mcp', auth: 'oauth' }), { verifiedDomains: ['example.com'] }, null],
  ['MCP host of a private app', (m) => (m.mcp = { url: 'https://mcp.example.net/mcp', auth: 'none' }), { verifiedDomains: [], appPrivate: true }, null],
  ['MCP on its own hosted subdomain', (m) => (m.mcp = { url: 'https://polls.apps.platform.test/mcp', auth: 'platform' }), { verifiedDomains: [], hostedAppDomain: 'apps.platform.test' }, null],
  ["MCP on another app's hosted subdomain", (m) => (m.mcp = { url: 'https://votes.apps.platform.test/mcp', auth: 'platform' }), { verifiedDomains: [], hostedAppDomain: 'apps.platform.test' }, 'mcp-host-unverified'],

  // Schedules (ours).
  ['schedule every minute in a time zone', (m) => (m.schedules = [{ name: 'standup', cron: '* * * * *', timeZone: 'Europe/Berlin' }]), undefined, null],
  ['schedule with seconds, once a minute', (m) => (m.schedules = [{ name: 'tick', cron: '30 * * * * *' }]), undefined, null],
  ['schedule that does not parse', (m) => (m.schedules = [{ name: 'bad', cron: '61 * * * *' }]), undefined, 'schedule-cron-invalid', ['schedules', 0, 'cron']],
  ['schedule that is not cron at all', (m) => (m.schedules = [{ name: 'bad', cron: 'every day' }]), undefined, 'schedule-cron-invalid', ['schedules', 0, 'cron']],
  ['schedule every 30 seconds', (m) => (m.schedules = [{ name: 'fast', cron: '*/30 * * * * *' }]), undefined, 'schedule-too-frequent', ['schedules', 0, 'cron']],
  ['schedule twice within a minute', (m) => (m.schedules = [{ name: 'fast', cron: '0,59 0 9 * * *' }]), undefined, 'schedule-too-frequent', ['schedules', 0, 'cron']],
  ['schedule in an unknown zone', (m) => (m.schedules = [{ name: 'mars', cron: '0 9 * * *', timeZone: 'Mars/Olympus' }]), undefined, 'schedule-time-zone-unknown', ['schedules', 0, 'timeZone']],
  ['duplicate schedule names', (m) => (m.schedules = [{ name: 'a', cron: '0 9 * * *' }, { name: 'a', cron: '0 10 * * *' }]), undefined, 'duplicate', ['schedules', 1, 'name']],
  ['schedule name out of format', (m) => (m.schedules = [{ name: 'Stand Up', cron: '0 9 * * *' }]), undefined, 'invalid', ['schedules', 0, 'name']],

  // Schema-level problems (ours: `invalid`).
  ['unknown top-level field', (m) => (m.colour = 'red'), undefined, 'invalid', ['colour']],
  ['unknown nested field', (m) => (m.blocks[0].actions[0].danger = true), undefined, 'invalid', ['blocks', 0, 'actions', 0, 'danger']],
  ['wrong type', (m) => (m.blocks[0].insertable = 'yes'), undefined, 'invalid', ['blocks', 0, 'insertable']],
  ['schemaVersion other than 1', (m) => (m.schemaVersion = 2), undefined, 'invalid', ['schemaVersion']],
  ['unknown scope', (m) => m.scopes.push('everything:write'), undefined, 'invalid', ['scopes', 2]],
  ['unknown event', (m) => m.events.push('post.deleted'), undefined, 'invalid', ['events', 2]],
  ['secret variable not required', (m) => (m.env[0].required = false), undefined, 'invalid', ['env', 0, 'required']],
  ['schema that is not a schema', (m) => (m.blocks[0].props = 'object'), undefined, 'invalid', ['blocks', 0, 'props']],
  ['MCP over http', (m) => (m.mcp = { url: 'http://mcp.example.com/', auth: 'none' }), undefined, 'invalid', ['mcp', 'url']],
];

describe('validateManifest: one row per reason', () => {
  it('accepts the base manifest and applies defaults', () => {
    const result = validateManifest({ schemaVersion: 1, name: 'Tiny', slug: 'tiny' });
    expect(result).toEqual({ valid: true, manifest: expect.objectContaining({ hosting: 'platform', blocks: [], scopes: [], events: [] }) });
    expect(validateManifest(baseManifest())).toMatchObject({ valid: true });
  });

  it.each(rows)('%s', (_name, change, context, expected, path) => {
    const result = validateManifest(manifestWith(change), context);
    if (expected === null) {
      expect(result).toMatchObject({ valid: true });
      return;
    }
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.error._tag).toBe('PlatformAppManifestInvalidError');
    expect(result.error.reason).toBe(expected);
    expect(result.error.message.length).toBeGreaterThan(0);
    if (path) expect(result.error.path).toEqual(path);
  });

  it('has a failing row for every reason it can answer', () => {
    const covered = new Set(rows.filter((row) => row[3] !== null).map((row) => row[3]));
    // Counts and the schema budget have their own tables (manifest-limits, json-schema-budget).
    for (const reason of ['too-many-patterns', 'schema-too-complex']) covered.add(reason);
    for (const reason of Object.keys(MANIFEST_INVALID_REASONS).filter((r) => r.startsWith('too-many-'))) covered.add(reason);
    expect([...covered].sort()).toEqual(Object.keys(MANIFEST_INVALID_REASONS).sort());
  });

  it('never throws on hostile input', () => {
    const hostile: unknown[] = [undefined, null, 0, 'manifest', [], [1, 2], { __proto__: { schemaVersion: 1 } }, new Date(), Object.create(null)];
    const throwing = { get schemaVersion() { throw new Error('boom'); } };
    for (const input of [...hostile, throwing]) {
      const result = validateManifest(input);
      expect(result.valid).toBe(false);
      if (!result.valid) expect(result.error.reason).toBe('invalid');
    }
  });

  it('reads a readOnly hint with no scopes as needing nothing', () => {
    const result = validateManifest(manifestWith((m) => { m.blocks[0].actions = [{ name: 'look', hints: hints(true), scopes: [] }]; m.scopes = ['conversations:read']; }));
    expect(result.valid).toBe(true);
  });
});
