/**
 * @module http/answer
 * Writes a run's result as the HTTP response: the guest's status, headers and body (minus
 * hop-by-hop headers and anything posing as ours), or the tagged error. On the internal API,
 * `platform-runtime-outcome` tells the control plane which of the two it got (a guest may answer
 * 503 itself) and `platform-runtime-cpu-ms` the CPU the request used when it is known yet.
 */
import type { ServerResponse } from 'node:http';
import { fromHeaderBlock } from '../shared/bridge.ts';
import type { RunResult } from '../supervisor/supervisor.ts';

const DROP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'trailer', 'content-length', 'x-request-id']);
const NULL_BODY = new Set([204, 205, 304]);

export const OUTCOME_HEADER = 'platform-runtime-outcome';
export const REQUEST_ID_HEADER = 'x-request-id';
export const CPU_HEADER = 'platform-runtime-cpu-ms';

export function writeAnswer(res: ServerResponse, requestId: string, result: RunResult, options: { internal: boolean; allowCookies: boolean }): void {
  if (result.kind === 'error') {
    const body = JSON.stringify(result.error.toBody());
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: requestId };
    if (options.internal) {
      headers[OUTCOME_HEADER] = result.report?.outcome ?? 'error';
      if (result.report !== null) headers[CPU_HEADER] = String(result.report.cpuMs);
    }
    res.writeHead(result.error.status, headers);
    res.end(body);
    return;
  }
  const raw: string[] = [];
  for (const [name, value] of fromHeaderBlock(result.head.headers)) {
    if (DROP.has(name) || name.startsWith('platform-runtime-') || (!options.allowCookies && name === 'set-cookie')) continue;
    raw.push(name, value);
  }
  raw.push(REQUEST_ID_HEADER, requestId);
  if (options.internal) {
    raw.push(OUTCOME_HEADER, 'ok');
    if (result.report !== null) raw.push(CPU_HEADER, String(result.report.cpuMs));
  }
  const body = NULL_BODY.has(result.head.status) ? null : result.body;
  if (!NULL_BODY.has(result.head.status)) raw.push('content-length', String(body?.length ?? 0));
  res.writeHead(result.head.status, result.head.statusText === '' ? undefined : result.head.statusText, raw);
  res.end(body ?? undefined);
}
