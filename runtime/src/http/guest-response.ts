/**
 * @module http/guest-response
 * Turns a run's answer into the HTTP response: the guest's status, headers and body (minus
 * hop-by-hop headers and anything posing as ours), or the tagged error. `platform-runtime-outcome`
 * tells the control plane which of the two it got, since a guest may answer 503 itself.
 */
import type { RunReport } from '../protocol/messages.ts';
import type { RunAnswer } from '../supervisor/supervisor.ts';

const DROP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authenticate', 'trailer', 'content-length', 'x-request-id']);

export const OUTCOME_HEADER = 'platform-runtime-outcome';
export const REQUEST_ID_HEADER = 'x-request-id';
export const CPU_HEADER = 'platform-runtime-cpu-ms';

export async function toHttpResponse(requestId: string, answer: RunAnswer, options: { internal: boolean; allowCookies: boolean }): Promise<Response> {
  // The report is usually there already (answered and settled together); never wait for
  // `waitUntil` work just to add a header.
  const report = await Promise.race([answer.report, Promise.resolve(null)]) as RunReport | null;
  const headers = new Headers();
  if ('error' in answer) {
    headers.set('content-type', 'application/json');
    headers.set(REQUEST_ID_HEADER, requestId);
    if (options.internal) {
      headers.set(OUTCOME_HEADER, (await answer.report).outcome);
      if (report !== null) headers.set(CPU_HEADER, String(report.cpuMs));
    }
    return new Response(JSON.stringify(answer.error.toBody()), { status: answer.error.status, headers });
  }
  const { response } = answer;
  for (const [name, value] of response.headers) {
    if (DROP.has(name) || name.startsWith('platform-runtime-') || (!options.allowCookies && name === 'set-cookie')) continue;
    headers.append(name, value);
  }
  headers.set(REQUEST_ID_HEADER, requestId);
  if (options.internal) {
    headers.set(OUTCOME_HEADER, 'ok');
    if (report !== null) headers.set(CPU_HEADER, String(report.cpuMs));
  }
  const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(nullBody ? null : response.body, { status: response.status, statusText: response.statusText, headers });
}
