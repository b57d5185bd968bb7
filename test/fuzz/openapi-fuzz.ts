/**
 * A schema-driven fuzz run over every operation of the control plane's two OpenAPI documents
 * (`/client/v1` and `/v0`): requests built by fast-check from each operation's parameters and
 * request body (test/fuzz/schema-arbitrary.ts), with the right credential most of the time, sent
 * over real HTTP. Every answer is judged: no 5xx; every 4xx carries `_tag`, `message` and `path`;
 * every status is one the operation's entry documents.
 */
import fc from 'fast-check';
import { createSchemaArbitraries, hostileString, type JsonSchema } from './schema-arbitrary.ts';

export interface FuzzTarget {
  /** Origin of the control plane. */
  url: string;
  /** The credential for each security scheme name of the documents (`member`, `install`, …). */
  credentials: Record<string, string>;
  /** Known ids by path parameter name (`circleId`, `app_id`, …): requests use them often. */
  ids: Record<string, string[]>;
}

export interface FuzzFailure {
  operation: string;
  request: { method: string; path: string; body?: string };
  status: number;
  problem: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  durationMs: number;
  byStatus: Record<string, number>;
  /** Requests sent per operation id: every operation of both documents is called. */
  byOperation: Record<string, number>;
  failures: FuzzFailure[];
}

interface Operation {
  id: string;
  method: string;
  base: string;
  path: string;
  security: string[];
  params: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }>;
  body: JsonSchema | undefined;
  documented: Set<number>;
  arbs: ReturnType<typeof createSchemaArbitraries>;
}

/** Reads both documents into the list of operations to call. */
export async function loadOperations(url: string, bases: readonly string[] = ['/client/v1', '/v0']): Promise<Operation[]> {
  const ops: Operation[] = [];
  for (const base of bases) {
    const doc = await (await fetch(`${url}${base}/openapi.json`)).json() as JsonSchema;
    const arbs = createSchemaArbitraries(doc.components?.schemas ?? {});
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>)) {
      for (const [method, op] of Object.entries(methods)) {
        ops.push({
          id: `${method.toUpperCase()} ${base}${path}`, method: method.toUpperCase(), base, path,
          security: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)),
          params: op.parameters ?? [],
          body: op.requestBody?.content?.['application/json']?.schema,
          documented: new Set(Object.keys(op.responses ?? {}).map(Number)),
          arbs,
        });
      }
    }
  }
  return ops;
}

/** Percent-encodes any string, lone surrogates included (as the CESU-style bytes a client might send). */
export function encodeAny(value: string): string {
  let out = '';
  for (const ch of value) {
    const cu = ch.charCodeAt(0);
    if (ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      out += `%ED%${(0xa0 | ((cu >> 6) & 0x0f)).toString(16).toUpperCase()}%${(0x80 | (cu & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** Operations that would take the run's own world away (its key, install, app or secrets): random ids only. */
const DESTRUCTIVE = /delete|uninstall|rotate|revoke|suspend/i;

function requestArbitrary(op: Operation, target: FuzzTarget) {
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
  const paramArb = (p: Operation['params'][number]) => {
    const known = DESTRUCTIVE.test(op.id) && op.method !== 'GET' ? [] : (target.ids[p.name] ?? []);
    const options: Array<fc.WeightedArbitrary<string>> = [
      { weight: 3, arbitrary: op.arbs.of(p.schema).map(asText) },
      { weight: 2, arbitrary: hostileString },
    ];
    if (known.length > 0) options.push({ weight: 6, arbitrary: fc.constantFrom(...known) });
    return fc.oneof(...options);
  };
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  // A scheme the world holds no credential for is an optional one (the operator scheme of the
  // embedded default, where workspace creation is open): its callers send no header at all.
  const held = op.security.map((s) => target.credentials[s]).filter((c): c is string => c !== undefined);
  const credential = op.security.length === 0 ? fc.constant(undefined)
    : fc.oneof(
      { weight: 9, arbitrary: held.length === 0 ? fc.constant(undefined) : fc.constantFrom(...held) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, 'Bearer platkey_nope', 'Basic !!!', 'Bearer ') },
    );
  return fc.record({
    path: fc.tuple(...pathParams.map(paramArb)),
    query: fc.tuple(...queryParams.map((p) => fc.option(paramArb(p), { freq: p.required ? 10 : 2 }))),
    body: op.body === undefined ? fc.constant(undefined) : op.arbs.of(op.body),
    credential,
  }).map(({ path, query, body, credential: auth }) => {
    let url = op.base + pathParams.reduce((p, param, i) => p.replace(`{${param.name}}`, encodeAny(path[i]!)), op.path);
    const pairs = queryParams.flatMap((p, i) => (query[i] == null ? [] : [`${encodeAny(p.name)}=${encodeAny(query[i]!)}`]));
    if (pairs.length > 0) url += `?${pairs.join('&')}`;
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return { method: op.method, path: url, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  });
}

function judge(op: Operation, status: number, text: string): string | null {
  if (status >= 500) return `answered ${status}`;
  if (!op.documented.has(status)) return `status ${status} is not in the operation's OpenAPI entry`;
  if (status < 400) return null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body._tag !== 'string' || typeof body.message !== 'string' || !Array.isArray(body.path)) return 'the error body lacks _tag, message or path';
  } catch {
    return 'the error body is not JSON';
  }
  return null;
}

/**
 * @example
 * const report = await runFuzz(target, { requests: 3_000, seed: 13, concurrency: 8 });
 * expect(report.failures).toEqual([]);
 */
export async function runFuzz(target: FuzzTarget, options: { requests: number; seed: number; concurrency: number; onProgress?: (done: number) => void }): Promise<FuzzReport> {
  const ops = await loadOperations(target.url);
  const arbitraries = ops.map((op) => requestArbitrary(op, target));
  const report: FuzzReport = { requests: 0, operations: ops.length, durationMs: 0, byStatus: {}, byOperation: {}, failures: [] };
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < options.requests) {
      const i = next++;
      const op = ops[i % ops.length]!;
      const [request] = fc.sample(arbitraries[i % ops.length]!, { numRuns: 1, seed: options.seed + i });
      const res = await fetch(target.url + request!.path, { method: request!.method, headers: request!.headers, ...(request!.body === undefined ? {} : { body: request!.body }) });
      // A live stream (the logs' server-sent events) never ends: judged by its status and headers.
      const streaming = res.headers.get('content-type')?.startsWith('text/event-stream') === true;
      if (streaming) await res.body?.cancel();
      const text = streaming ? '' : await res.text();
      report.requests++;
      report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
      report.byOperation[op.id] = (report.byOperation[op.id] ?? 0) + 1;
      const problem = judge(op, res.status, text);
      if (problem !== null && report.failures.length < 200) {
        report.failures.push({ operation: op.id, request: { method: request!.method, path: request!.path, ...(request!.body === undefined ? {} : { body: request!.body.slice(0, 500) }) }, status: res.status, problem, body: text.slice(0, 500) });
      }
      if (report.requests % 1000 === 0) options.onProgress?.(report.requests);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  report.durationMs = Math.round(performance.now() - started);
  return report;
}
