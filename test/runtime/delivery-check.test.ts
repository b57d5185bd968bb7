// The delivery request's hot-path check (runtime/src/deliveries/check.ts) is the zod schema
// (schemas.ts) written as a plain function: on every input both must accept or both refuse, and
// what they accept must come out the same (defaults applied). Generated from valid requests with
// one field changed or removed, plus arbitrary JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDelivery } from '../../runtime/src/deliveries/check.ts';
import { DeliveryRequestSchema } from '../../runtime/src/deliveries/schemas.ts';

const signed = { 'webhook-id': 'dlv_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,abc', 'platform-delivery': 'interactive', 'platform-install': 'ins_1' };

const valid = fc.record({
  app: fc.record({ id: fc.string({ minLength: 1, maxLength: 20 }), slug: fc.constantFrom('abc', 'my-app', 'x1-y2-z3'), version: fc.nat({ max: 1000 }) }),
  bundle: fc.record({ sha256: fc.constantFrom('a'.repeat(64), '0123456789abcdef'.repeat(4)), sourceMapSha256: fc.constantFrom('b'.repeat(64)) }, { requiredKeys: ['sha256'] }),
  env: fc.option(fc.dictionary(fc.constantFrom('A', 'B_2', '_x', 'KEY'), fc.string({ maxLength: 10 })), { nil: undefined }),
  secretEnvKeys: fc.option(fc.array(fc.constantFrom('A', 'KEY'), { maxLength: 3 }), { nil: undefined }),
  target: fc.constantFrom('preview', 'production'),
  egressHosts: fc.option(fc.array(fc.constantFrom('api.example.com', '*.cdn.example.com', 'api.example.com:8443'), { maxLength: 3 }), { nil: undefined }),
  installToken: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
  baseUrl: fc.constantFrom('https://platform.example.com', 'http://127.0.0.1:4000'),
  kind: fc.constantFrom('interactive', 'command', 'lifecycle', 'mcp'),
  headers: fc.constant(signed),
  body: fc.string({ maxLength: 50 }),
}, { requiredKeys: ['app', 'bundle', 'target', 'baseUrl', 'kind', 'headers', 'body'] });

const junk = fc.oneof(
  fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 20 }), fc.integer(), fc.double(), fc.boolean(), fc.constant([]), fc.constant({}),
  fc.constantFrom('ftp://x.example', 'not a url', 'Bad Slug', 'x'.repeat(300), '-1', 'A B', 'host:99999', 'x\ny', 'z'.repeat(70), 'UPPER', 'a..b:', '*.x.y:0443'),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.integer({ min: -2, max: 2 }).map((n) => n + 0.5),
);

/** A valid request with one field (or one sub-field) replaced, removed or added. */
const mutated = fc.tuple(valid, fc.constantFrom('app', 'app.id', 'app.slug', 'app.version', 'bundle', 'bundle.sha256', 'bundle.sourceMapSha256', 'bundle.extra', 'env', 'env.K', 'secretEnvKeys', 'target', 'egressHosts', 'egressHosts.0', 'installToken', 'baseUrl', 'kind', 'headers', 'headers.webhook-id', 'headers.x', 'headers.Bad', 'body', 'extra', 'app.extra'), junk, fc.boolean())
  .map(([request, path, value, remove]) => {
    const copy = structuredClone(request) as Record<string, any>;
    const [head, tail] = path.split('.') as [string, string | undefined];
    let target: Record<string, any> = copy;
    let key = head;
    if (tail !== undefined) {
      if (typeof copy[head] !== 'object' || copy[head] === null) copy[head] = Array.isArray(copy[head]) ? [] : {};
      target = copy[head];
      key = tail;
    }
    if (remove) delete target[key];
    else target[key] = value;
    return copy;
  });

function zod(input: unknown): unknown {
  const parsed = DeliveryRequestSchema.safeParse(input);
  return parsed.success ? parsed.data : null;
}

describe('checkDelivery agrees with DeliveryRequestSchema', () => {
  it('on valid requests, with the same output', () => {
    fc.assert(fc.property(valid, (request) => {
      expect(checkDelivery(request)).toEqual(zod(request));
      expect(checkDelivery(request)).not.toBeNull();
    }), { numRuns: 500 });
  });

  it('on requests with one field changed, removed or added', () => {
    fc.assert(fc.property(mutated, (request) => {
      const ours = checkDelivery(request);
      const theirs = zod(request);
      expect(ours === null).toBe(theirs === null);
      if (ours !== null) expect(ours).toEqual(theirs);
    }), { numRuns: 3000 });
  });

  it('on arbitrary JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(checkDelivery(value) === null).toBe(zod(value) === null);
    }), { numRuns: 500 });
  });

  it('at the limits: 32 headers, not 33; a 4 MB body, not one more character', () => {
    const base = fc.sample(valid, { numRuns: 1, seed: 1 })[0]!;
    const headers = (n: number) => ({ ...signed, ...Object.fromEntries(Array.from({ length: n - 5 }, (_, i) => [`x-h${i}`, 'v'])) });
    for (const [request, ok] of [
      [{ ...base, headers: headers(32) }, true], [{ ...base, headers: headers(33) }, false],
      [{ ...base, body: 'x'.repeat(4 * 1024 * 1024) }, true], [{ ...base, body: 'x'.repeat(4 * 1024 * 1024 + 1) }, false],
    ] as const) {
      expect(checkDelivery(request) !== null).toBe(ok);
      expect(zod(request) !== null).toBe(ok);
    }
  });
});
