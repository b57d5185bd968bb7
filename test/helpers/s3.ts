/**
 * `startS3()`: an S3-compatible server on loopback for the bundle store's S3 path. The objects are
 * kept by s3rver (npm), a real S3 implementation of PutObject, GetObject, HeadObject and
 * DeleteObject; s3rver does not check SigV4 signatures, so a small proxy in front of it does, with
 * an implementation of its own (AWS's `@smithy/signature-v4`): each request's signature is computed
 * again from the method, path, query, the headers it names as signed and the payload hash, and a
 * request whose signature differs is refused `403 SignatureDoesNotMatch`, as S3 refuses it. Every
 * request that reached the proxy is recorded.
 *
 *   const s3 = await startS3();
 *   // S3_ENDPOINT=s3.url, S3_BUCKET=s3.bucket, S3_ACCESS_KEY_ID=s3.accessKeyId, …
 *   await s3.stop();
 */
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Requests that reached the server, in order: method, path and whether the signature held. */
  requests: Array<{ method: string; path: string; signed: boolean }>;
  stop(): Promise<void>;
}

const ACCESS_KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';
const REGION = 'us-east-1';

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The signature SigV4 gives this request, over the headers its Authorization header names. */
async function expectedSignature(req: IncomingMessage, body: Buffer, port: number): Promise<string | null> {
  const auth = /^AWS4-HMAC-SHA256 Credential=[^,]+, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  const date = req.headers['x-amz-date'];
  if (auth === null || typeof date !== 'string') return null;
  const signed = auth[1]!.split(';');
  const headers: Record<string, string> = {};
  for (const name of signed) headers[name] = String(req.headers[name] ?? '');
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  const signer = new SignatureV4({ credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET }, region: REGION, service: 's3', sha256: Hash.bind(null, 'sha256'), uriEscapePath: false });
  const at = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
  const request = await signer.sign({
    method: req.method ?? 'GET', protocol: 'http:', hostname: url.hostname, port, path: url.pathname,
    query: Object.fromEntries(url.searchParams), headers, body,
  }, { signingDate: at, signableHeaders: new Set(signed) });
  return /Signature=([0-9a-f]{64})/.exec(String(request.headers.authorization))?.[1] ?? null;
}

export async function startS3(bucket = 'bundles'): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: storePort } = await store.run();
  const requests: S3Server['requests'] = [];
  let port = 0;
  const proxy: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const provided = /Signature=([0-9a-f]{64})/.exec(req.headers.authorization ?? '')?.[1];
      const signedOk = provided !== undefined && provided === (await expectedSignature(req, body, port));
      requests.push({ method: req.method ?? '', path: req.url ?? '', signed: signedOk });
      if (!signedOk) {
        res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)]));
      const answer = await fetch(`http://127.0.0.1:${storePort}${req.url}`, { method: req.method!, headers, ...(body.length > 0 ? { body } : {}) });
      const bytes = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream', 'content-length': String(req.method === 'HEAD' ? answer.headers.get('content-length') ?? 0 : bytes.length) });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  port = (proxy.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`, bucket, region: REGION, accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET, requests,
    async stop() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
