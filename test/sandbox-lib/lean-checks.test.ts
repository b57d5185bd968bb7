/**
 * The SDK's lean delivery checks (sandbox-lib/src/delivery/lean) against the zod schemas they stand
 * in for inside hosted bundles: for samples of every envelope, interactive data and result and
 * event payload, mutated at random (fields removed, replaced by other JSON, values at the limits,
 * unknown and hostile keys added), both must accept the same values, read them to the same value
 * (key order included), and refuse the rest with the same first issue (path and message), since
 * the SDK's answers quote it.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  EVENT_TYPES, EnvelopeSchema, INTERACTIVE_TYPES, LIMITS, eventDataSchemas, interactiveDataSchemas, interactiveResultSchemas,
} from '@platform/sdk';
import {
  blockResultChecks, envelopeCheck, eventDataChecks, interactiveDataChecks, pieceResultChecks, read, type Check,
} from '../../sandbox-lib/src/delivery/lean/index.ts';
import { DATETIME_PATTERN } from '../../sandbox-lib/src/delivery/lean/primitives.ts';
import { block, envelope, EVENT_SAMPLES, SAMPLES } from './delivery-samples.ts';

type Path = Array<string | number>;

const interactiveResultChecks: Record<string, Check> = { ...blockResultChecks, ...pieceResultChecks };

function zodRead(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  return { ok: false, path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'), message: issue.message };
}

/**
 * A value as nested arrays of entries (key order, `undefined` members and null prototypes kept),
 * because `toStrictEqual` compares objects' `constructor` properties to tell their types apart,
 * and a record may hold a member named `constructor` (two equal reads then look like two types).
 */
function entries(value: unknown): unknown {
  if (Array.isArray(value)) return ['array', value.map(entries)];
  if (typeof value !== 'object' || value === null) return value === undefined ? ['undefined'] : value;
  const keys = Reflect.ownKeys(value).map((key) => [String(key), entries((value as Record<PropertyKey, unknown>)[key])]);
  return ['object', Object.getPrototypeOf(value) === null, keys];
}

/** Same verdict, same value read (key order included), same first issue. */
function agree(schema: z.ZodType, check: Check, value: unknown): void {
  const expected = zodRead(schema, value);
  const actual = read(check, value);
  expect(entries(actual)).toStrictEqual(entries(expected));
  if (expected.ok) expect(JSON.stringify((actual as { value: unknown }).value)).toBe(JSON.stringify(expected.value));
}

// ---- mutations of a valid sample ----

function nodes(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => nodes(item, [...path, i], out));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) nodes(item, [...path, key], out);
  return out;
}

const limits = [
  LIMITS.actions.notice, LIMITS.text.optionLabel, LIMITS.endpoints.searchTitleMax, LIMITS.blockTree.summary, 200, 64, 32,
  LIMITS.references.urlLength,
];
const interesting = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  fc.constantFrom(
    '', ' ', 'x', 'a0', 'bad ref!', 'vote', 'VOTE', 'https://example.com/a', 'http://example.com', 'https://', 'mailto:a@b.c',
    '2025-01-02T03:04:05Z', '2025-01-02T03:04:05.1+01:00', '2025-02-29T00:00:00Z', '2025-01-02', 'member', 'circle', 'dm', 'granted',
    'forbidden', 'unavailable', 'weird', 'interactive', 'workspace', 'dev', 'public', 'private', 'danger', 'polls', 'Po',
    0, 1, -1, 1.5, 2 ** 53, -(2 ** 53), 1e300, 51, 101, true, false, null, [], {}, { type: 'uiBlock' }, { name: 'vote' },
  ),
  // Texts around the limits, in characters that are several UTF-16 units or several code points.
  fc.tuple(fc.constantFrom(...limits), fc.integer({ min: -1, max: 1 }), fc.constantFrom('x', 'é', '👍🏽', '\u{1F600}')).map(([n, d, ch]) => ch.repeat(Math.max(0, n + d))),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.double(),
  fc.array(fc.constantFrom(1, 'a', null, {}), { maxLength: 30 }),
);

type Mutation = { pick: number; op: 'set' | 'delete' | 'add'; key: string; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('set', 'set', 'delete', 'add'),
  key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', '0', 'extra', 'type', 'tree', 'actions'), fc.string({ maxLength: 4 })),
  value: interesting,
});

function mutate(sample: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(sample);
  for (const m of mutations) {
    const all = nodes(root);
    const path = all[m.pick % all.length]!;
    if (path.length === 0) {
      if (m.op === 'set') root = structuredClone(m.value);
      continue;
    }
    const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], root);
    const last = path[path.length - 1]!;
    const target = m.op === 'add' ? parent[last] : parent;
    if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (m.op === 'set') {
      Object.defineProperty(parent, last, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
    } else if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      // As JSON.parse makes it: an own property, even for `__proto__`.
      Object.defineProperty(target, m.key, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

const mutated = (sample: unknown) => fc.array(mutation, { minLength: 0, maxLength: 3 }).map((ms) => mutate(sample, ms));
const RUNS = { numRuns: 150 };

describe('lean delivery checks agree with the zod schemas', () => {
  it('has a result check for each interactive type', () => {
    expect(Object.keys(interactiveResultChecks).sort()).toEqual([...INTERACTIVE_TYPES].sort());
  });

  it('uses the zod datetime pattern', () => {
    expect(DATETIME_PATTERN.source).toBe((z.iso.datetime({ offset: true }) as any)._zod.def.pattern.source);
  });

  it('envelope', () => {
    const samples = [envelope('block.render', SAMPLES['block.render'].data), { ...envelope('post.created', {}), actor: undefined }];
    for (const sample of samples) fc.assert(fc.property(mutated(sample), (value) => agree(EnvelopeSchema, envelopeCheck, value)), RUNS);
    fc.assert(fc.property(fc.anything(), (value) => agree(EnvelopeSchema, envelopeCheck, value)), RUNS);
  });

  it.each(INTERACTIVE_TYPES)('%s data', (type) => {
    fc.assert(fc.property(mutated(SAMPLES[type].data), (value) => agree(interactiveDataSchemas[type], interactiveDataChecks[type], value)), RUNS);
  });

  it.each(INTERACTIVE_TYPES)('%s result', (type) => {
    fc.assert(fc.property(mutated(SAMPLES[type].result), (value) => agree(interactiveResultSchemas[type], interactiveResultChecks[type]!, value)), RUNS);
    fc.assert(fc.property(fc.anything(), (value) => agree(interactiveResultSchemas[type], interactiveResultChecks[type]!, value)), { numRuns: 50 });
  });

  it.each(EVENT_TYPES)('%s data', (type) => {
    fc.assert(fc.property(mutated(EVENT_SAMPLES[type]), (value) => agree(eventDataSchemas[type], eventDataChecks[type], value)), RUNS);
  });

  it('reads the samples as zod does (defaults, closed lists, unknown fields kept)', () => {
    const action = { ...(SAMPLES['block.action'].data as object), action: { name: 'vote' }, extra: 1 };
    expect(read(interactiveDataChecks['block.action'], action)).toMatchObject({ ok: true, value: { action: { name: 'vote', args: {} }, extra: 1 } });
    agree(interactiveDataSchemas['block.action'], interactiveDataChecks['block.action'], action);
    const render = { block, mode: 'printed' };
    expect(read(interactiveDataChecks['block.render'], render)).toMatchObject({ ok: true, value: { mode: 'interactive' } });
  });
});
