/**
 * `startOtlpReceiver()`: an OTLP/HTTP collector on loopback for tests. It decodes what arrives
 * (`POST /v1/traces`, `/v1/metrics`, `/v1/logs`, protobuf, gzip or not) with the protobuf code
 * generated from the official opentelemetry-proto definitions that @opentelemetry/otlp-transformer
 * shipped (its 0.214 build, installed as `otlp-proto-root`), answers 200 with an empty export
 * response, and keeps the decoded requests. `waitFor` resolves when what has arrived satisfies a
 * test, on arrival (no polling).
 *
 *   const otlp = await startOtlpReceiver();
 *   const spans = await otlp.waitFor(() => otlp.spans().filter(...), (s) => s.length >= 3);
 *   await otlp.stop();
 */
import { once } from 'node:events';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

interface Decoder { decode(bytes: Uint8Array): unknown; toObject(message: unknown, options: object): unknown }
interface ProtoRoot {
  opentelemetry: { proto: { collector: {
    trace: { v1: { ExportTraceServiceRequest: Decoder } };
    metrics: { v1: { ExportMetricsServiceRequest: Decoder } };
    logs: { v1: { ExportLogsServiceRequest: Decoder } };
  } } };
}
const root = createRequire(import.meta.url)('otlp-proto-root/build/src/generated/root.js') as ProtoRoot;
const collector = root.opentelemetry.proto.collector;
const DECODERS: Record<string, Decoder> = {
  '/v1/traces': collector.trace.v1.ExportTraceServiceRequest,
  '/v1/metrics': collector.metrics.v1.ExportMetricsServiceRequest,
  '/v1/logs': collector.logs.v1.ExportLogsServiceRequest,
};
// Ids as hex (`bytes: String` would give base64), 64-bit integers as strings, enums as numbers.
const TO_OBJECT = { longs: String, enums: Number, bytes: Buffer, defaults: false, arrays: true };

type AnyValue = { stringValue?: string; intValue?: string; doubleValue?: number; boolValue?: boolean };
interface KeyValue { key: string; value: AnyValue }

export interface DecodedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}
export interface DecodedMetric { service: string; name: string; kind: 'sum' | 'gauge' | 'histogram' | 'other'; points: Array<{ attributes: Record<string, string | number | boolean>; value: unknown }> }
export interface DecodedLog { service: string; body: string; severityText: string; traceId: string; spanId: string; attributes: Record<string, string | number | boolean> }

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Request headers of every export received (to check OTEL_EXPORTER_OTLP_HEADERS). */
  headers: IncomingMessage['headers'][];
  spans(): DecodedSpan[];
  metrics(): DecodedMetric[];
  logs(): DecodedLog[];
  /** Resolves with `read()` once `done` holds for it (checked now and at each arrival); rejects after `timeoutMs`. */
  waitFor<T>(read: () => T, done: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

const hex = (b: unknown): string => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : '');
function valueOf(v: AnyValue | undefined): string | number | boolean {
  if (v === undefined) return '';
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return '';
}
function attrs(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}
const serviceOf = (resource: { attributes?: KeyValue[] } | undefined): string => String(attrs(resource?.attributes)['service.name'] ?? '');

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: Array<{ path: string; body: any }> = [];
  const headers: IncomingMessage['headers'][] = [];
  const arrivals = new EventEmitter();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const decoder = req.method === 'POST' ? DECODERS[req.url ?? ''] : undefined;
      if (decoder === undefined) {
        res.writeHead(404).end();
        return;
      }
      let bytes = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') bytes = gunzipSync(bytes);
      received.push({ path: req.url!, body: decoder.toObject(decoder.decode(bytes), TO_OBJECT) });
      headers.push(req.headers);
      // An empty Export*ServiceResponse is zero bytes of protobuf.
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': 0 }).end();
      arrivals.emit('arrival');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const of = (path: string) => received.filter((r) => r.path === path).map((r) => r.body);

  const spans = (): DecodedSpan[] => of('/v1/traces').flatMap((b) => (b.resourceSpans ?? []).flatMap((rs: any) => (rs.scopeSpans ?? []).flatMap((ss: any) =>
    (ss.spans ?? []).map((s: any) => ({
      service: serviceOf(rs.resource), traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId), name: s.name, kind: s.kind ?? 0, attributes: attrs(s.attributes),
    })))));
  const metrics = (): DecodedMetric[] => of('/v1/metrics').flatMap((b) => (b.resourceMetrics ?? []).flatMap((rm: any) => (rm.scopeMetrics ?? []).flatMap((sm: any) =>
    (sm.metrics ?? []).map((m: any) => {
      const kind = m.sum !== undefined ? 'sum' : m.gauge !== undefined ? 'gauge' : m.histogram !== undefined ? 'histogram' : 'other';
      const points = (m.sum ?? m.gauge ?? m.histogram)?.dataPoints ?? [];
      return {
        service: serviceOf(rm.resource), name: m.name, kind,
        points: points.map((p: any) => ({ attributes: attrs(p.attributes), value: kind === 'histogram' ? { count: Number(p.count), bucketCounts: (p.bucketCounts ?? []).map(Number), bounds: p.explicitBounds ?? [] } : p.asDouble ?? Number(p.asInt ?? 0) })),
      };
    }))));
  const logs = (): DecodedLog[] => of('/v1/logs').flatMap((b) => (b.resourceLogs ?? []).flatMap((rl: any) => (rl.scopeLogs ?? []).flatMap((sl: any) =>
    (sl.logRecords ?? []).map((l: any) => ({
      service: serviceOf(rl.resource), body: String(valueOf(l.body)), severityText: l.severityText ?? '', traceId: hex(l.traceId), spanId: hex(l.spanId), attributes: attrs(l.attributes),
    })))));

  return {
    url: `http://127.0.0.1:${port}`,
    headers,
    spans, metrics, logs,
    waitFor<T>(read: () => T, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): boolean => {
          const value = read();
          if (!done(value)) return false;
          cleanup();
          resolve(value);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the OTLP receiver did not get what was awaited within ${timeoutMs} ms (it has ${received.length} exports)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          arrivals.off('arrival', check);
        };
        if (!check()) arrivals.on('arrival', check);
      });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
