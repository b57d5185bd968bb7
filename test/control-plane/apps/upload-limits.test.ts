/**
 * The hosted upload's body rules, which hold before any code runs: at most 10 MB counted while
 * streaming (a declared length over it is refused before reading; a chunked body is cut off at
 * the first byte over it), the JavaScript content type, a non-empty body, and hosted apps only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@platform/sdk';
import { startStack, type CreatedWorkspace, type Stack } from '../../helpers/stack.ts';
import { createApp } from './helpers.ts';

const MAX = LIMITS.manifest.hostedBundleBytes;

let stack: Stack;
let ws: CreatedWorkspace;
let hostedId: string;

beforeAll(async () => {
  stack = await startStack();
  ws = await stack.createWorkspace();
  hostedId = (await createApp(ws.client, { hosting: 'platform' })).app.id;
});
afterAll(async () => stack.stop());

const upload = (appId: string, body: RequestInit['body'], headers: Record<string, string> = { 'content-type': 'application/javascript' }) =>
  fetch(`${stack.url}/v0/apps/${appId}/versions?target=preview`, {
    method: 'POST', headers: { authorization: `Bearer ${ws.apiKey}`, ...headers }, body, duplex: 'half',
  } as RequestInit);

/** A body of `total` bytes sent in 1 MB chunks without a content-length. */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(1024 * 1024, total - sent);
      controller.enqueue(new Uint8Array(n).fill(0x20));
      sent += n;
    },
  });
}

describe('hosted upload limits', () => {
  it('refuses 10 MB + 1 byte with 413 when the length is declared', async () => {
    const res = await upload(hostedId, new Uint8Array(MAX + 1).fill(0x20));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: MAX });
  });

  it('refuses 10 MB + 1 byte with 413 when streamed without a length (bytes are counted)', async () => {
    const res = await upload(hostedId, chunked(MAX + 1));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformApiPayloadTooLargeError', limit: MAX });
  });

  it('wants application/javascript (or text/javascript) and a non-empty body', async () => {
    const json = await upload(hostedId, '{}', { 'content-type': 'application/json' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).issues[0].code).toBe('content_type');
    const empty = await upload(hostedId, '');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as any).issues[0].code).toBe('empty');
  });

  it('takes bundles for hosted apps only', async () => {
    const { app } = await createApp(ws.client, { hosting: 'self' });
    const res = await upload(app.id, 'export default {}');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ _tag: 'PlatformAppManifestInvalidError', reason: 'hosting-mismatch' });
  });
});
