/**
 * Test support: an HTTPS server on loopback for the test-only egress names under `allowed.test`, and
 * trust in its certificate for the test process (where the runtime node's egress proxy runs).
 * The key and certificate below are for tests only: self-signed, for `allowed.test` and
 * `*.allowed.test` (names that exist nowhere), valid until 2126. Made with
 * `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
 * -subj /CN=allowed.test -addext subjectAltName=DNS:*.allowed.test,DNS:allowed.test`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import type { TestServer } from './runtime.ts';

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBrjCCAVSgAwIBAgIUE8+R/l3ngildY+rhvPSKVUJP8ccwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMYWxsb3dlZC50ZXN0MCAXDTI2MTEyNjA3MTk1N1oYDzIxMjYx
MTAyMDcxOTU3WjAXMRUwEwYDVQQDDAxhbGxvd2VkLnRlc3QwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATFJKTDXo0iHvf/t88K0tstoWWpymbDNCB9fIMChJlQzkKP
jrdj1c8ousBuByDt7Y/UQYvizuXh/i7YyjGYA3Vvo3wwejAdBgNVHQ4EFgQU5zYD
1SB/u+8aGisaChKQCQg9qyswHwYDVR0jBBgwFoAU5zYD1SB/u+8aGisaChKQCQg9
qyswDwYDVR0TAQH/BAUwAwEB/zAnBgNVHREEIDAegg4qLmFsbG93ZWQudGVzdIIM
YWxsb3dlZC50ZXN0MAoGCCqGSM49BAMCA0gAMEUCIQDdFjWy5LzfK0fN1syRvWXx
WmdMDavpVA0DjOpAp140RAIgOWlCNcc526CFMXh+cpHq01qqEZ2ppnbT5yVe+yHm
6gs=
-----END CERTIFICATE-----
`;

const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgf57+aFHB+LeIDCM8
iECZl0WATPfwycCaCg6ijSbBO/KhRANCAATFJKTDXo0iHvf/t88K0tstoWWpymbD
NCB9fIMChJlQzkKPjrdj1c8ousBuByDt7Y/UQYvizuXh/i7YyjGYA3Vv
-----END PRIVATE KEY-----
`;

/**
 * Makes TLS clients of this process (undici in the egress proxy included) trust the test
 * certificate besides the usual roots; returns the function that takes the trust back.
 */
export function trustTestCertificate(): () => void {
  const before = getCACertificates('default');
  setDefaultCACertificates([...before, TEST_TLS_CERT]);
  return () => setDefaultCACertificates(before);
}

/** An HTTPS server on 127.0.0.1 with the test certificate; every request is recorded in `hits`. */
export async function startTlsServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const hits: TestServer['hits'] = [];
  const server = createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    hits,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
