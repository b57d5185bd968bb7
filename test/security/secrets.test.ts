// No process that runs guest code holds a secret (issue #12): the sandbox worker gets an empty
// environment and never receives RUNTIME_SECRET, an app's signing secret (the node never holds one:
// deliveries arrive signed) or an install token (it stays in the supervisor, which adds it to the
// app's own /v0 calls). Proof by inspection: the worker's environment, and every readable byte of
// its memory after deliveries that carried a token and used it, searched for each value. The same
// scan of this process (which runs the supervisor) finds them, so the scan does see what is there.
// With connection hand-off the worker parses hosted requests itself; the internal API (the secret,
// the tokens) stays on the supervisor's connections, so the same holds.
import { Agent, fetch as undiciFetch } from 'undici';
import { openSync, readFileSync, readSync, closeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedApp } from '@platform/runtime';
import { SECRET, SIGNING_SECRET, fixture, startRuntime, startServer, type TestRuntime, type TestServer } from '../runtime/support/runtime.ts';

const TOKEN = 'platapp_secret_install_token_0123456789';

/** Which of `needles` occur in the readable memory of process `pid` (as one-byte or UTF-16 text). */
function foundInMemory(pid: number | 'self', needles: string[]): string[] {
  const patterns = needles.map((n) => ({ n, bytes: [Buffer.from(n, 'latin1'), Buffer.from(n, 'utf16le')] }));
  const found = new Set<string>();
  const fd = openSync(`/proc/${pid}/mem`, 'r');
  const chunk = Buffer.alloc(8 * 1024 * 1024);
  try {
    for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
      const m = /^([0-9a-f]+)-([0-9a-f]+) (r)/.exec(line);
      if (m === null || line.includes('[vvar]') || line.includes('[vsyscall]')) continue;
      let at = Number.parseInt(m[1]!, 16);
      const end = Number.parseInt(m[2]!, 16);
      while (at < end) {
        const n = Math.min(chunk.length, end - at);
        let read = 0;
        try {
          read = readSync(fd, chunk, 0, n, at);
        } catch {
          break; // a region that cannot be read (guard pages)
        }
        const view = chunk.subarray(0, read);
        for (const p of patterns) if (p.bytes.some((b) => view.includes(b))) found.add(p.n);
        // Overlap chunks by the longest needle so a value across a boundary is not missed.
        at += Math.max(1, read - 256);
      }
    }
  } finally {
    closeSync(fd);
  }
  return [...found];
}

for (const handoff of ['off', 'ingress'] as const) {
  describe(`secrets and the sandbox worker (RUNTIME_HANDOFF=${handoff})`, () => {
    let rt: TestRuntime;
    let api: TestServer;
    let app: ResolvedApp;

    beforeAll(async () => {
      api = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
      rt = await startRuntime({ RUNTIME_WORKERS: '1', RUNTIME_HANDOFF: handoff });
      app = await rt.deploy('basic', fixture('basic'), { baseUrl: api.url });
      const envelope = { id: 'dlv_s', type: 'block.action', install: { id: 'ins_1' }, installToken: { token: TOKEN, expiresAt: '2030-01-01T00:00:00Z' }, data: { callApi: true } };
      for (let i = 0; i < 3; i++) {
        const result = await rt.client.deliver(rt.delivery(app, { envelope: { ...envelope, id: `dlv_s${i}` } }));
        expect(result.outcome).toBe('ok');
        // With hand-off, hosted requests on their own connection are parsed and run by the worker.
        const routed = await undiciFetch(`${rt.url}/apps/basic/echo`, { dispatcher: new Agent({ connections: 1 }) });
        expect(routed.status).toBe(200);
      }
      // The token did its job: the app's /v0 call carried it.
      expect(api.hits.map((h) => h.headers.authorization)).toContain(`Bearer ${TOKEN}`);
    });
    afterAll(async () => {
      await rt?.stop();
      await api?.close();
    });

    it('the worker runs with an empty environment (hand-off: only the IPC channel Node names)', () => {
      for (const w of rt.node.supervisor!.load()) {
        const names = readFileSync(`/proc/${w.pid}/environ`, 'utf8').split('\0').filter((e) => e !== '').map((e) => e.slice(0, e.indexOf('=')));
        expect(names.sort()).toEqual(handoff === 'off' ? [] : ['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);
      }
    });

    it('no byte of the worker\'s memory holds the node secret, a signing secret or an install token', { timeout: 60_000 }, () => {
      const secrets = [SECRET, SIGNING_SECRET, SIGNING_SECRET.slice('whsec_'.length), TOKEN];
      for (const w of rt.node.supervisor!.load()) expect(foundInMemory(w.pid!, secrets)).toEqual([]);
      // The supervisor (this process) holds the node secret and the token: the scan finds them.
      expect(foundInMemory('self', [SECRET, TOKEN]).sort()).toEqual([SECRET, TOKEN].sort());
    });
  });
}
