/**
 * @module http/client-errors
 * Bytes the HTTP parser refuses get the tagged error body every other refusal has (`400`, or `431`
 * for a request line and headers over Node's 16 KB), written after the answers the connection
 * already owes to the pipelined requests before them (`answerClientErrorsInOrder`): Node's default
 * would drop the answer of a hosted request that already ran.
 */
import type { Server } from 'node:http';
import { answerClientErrorsInOrder } from '@platform/sdk/node';
import type { Logger } from 'pino';

/** @example onClientError(server, logger) */
export function onClientError(server: Server, logger: Logger): void {
  answerClientErrorsInOrder(server, { onRefusal: (err) => logger.debug({ code: err.code }, 'client error') });
}
