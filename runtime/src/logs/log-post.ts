/**
 * @module logs/log-post
 * One batch of app log lines to the control plane: `POST {url}/internal/v1/logs` with the node's
 * `RUNTIME_SECRET`. Says whether the batch is done with (sent, or refused as invalid: it would be
 * refused again) or must be tried again, and logs the change between failing and shipping once.
 */
import type { Logger } from 'pino';
import type { AppLogInput } from './app-log.ts';

export interface LogPost {
  /** True when the batch is done with; false when it must be tried again. */
  send(batch: AppLogInput[], queued: number, timeoutMs: number): Promise<boolean>;
  /** The last try failed. */
  readonly failing: boolean;
}

export function createLogPost(options: { url: string; secret: string; nodeId: string; logger: Logger; fetch?: typeof fetch }): LogPost {
  const doFetch = options.fetch ?? globalThis.fetch;
  const endpoint = `${options.url}/internal/v1/logs`;
  let failing = false;
  return {
    get failing() { return failing; },
    async send(batch, queued, timeoutMs) {
      try {
        const res = await doFetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ node: options.nodeId, lines: batch }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body?.cancel();
        // A batch the control plane refuses as invalid would be refused again: it is dropped.
        if (res.status === 400 || res.status === 413) {
          options.logger.error({ status: res.status, lines: batch.length }, 'control plane refused a batch of app log lines; dropped');
          return true;
        }
        if (!res.ok) throw new Error(`answered ${res.status}`);
        if (failing) options.logger.info('shipping app log lines to the control plane again');
        failing = false;
        return true;
      } catch (err) {
        if (!failing) options.logger.warn({ err, queued: queued + batch.length }, 'could not ship app log lines to the control plane; retrying');
        failing = true;
        return false;
      }
    },
  };
}
