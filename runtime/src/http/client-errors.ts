/**
 * @module http/client-errors
 * Bytes the HTTP parser refuses get the tagged error body every other refusal has (`400`, or `431`
 * for a request line and headers over Node's 16 KB), written after the answers the connection
 * already owes to the pipelined requests before them (`answerClientErrorsInOrder`): Node's default
 * would drop the answer of a hosted request that already ran.
 */
import type { Server } from 'node:http';
import { PlatformError } from '@platform/sdk';
import { answerClientErrorsInOrder } from '@platform/sdk/node';
import type { Logger } from 'pino';

function rawResponse(status: number, reason: string, error: PlatformError): string {
  const body = JSON.stringify(error.toBody());
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

const HEADERS_TOO_LARGE = rawResponse(431, 'Request Header Fields Too Large', new PlatformError(
  'PlatformApiHeadersTooLargeError', 'The request line and headers are larger than 16384 bytes', { fields: { limit: 16 * 1024 } }));

const MALFORMED = rawResponse(400, 'Bad Request', new PlatformError(
  'PlatformApiInvalidRequestError', 'The request is not well-formed HTTP', { fields: { issues: [] } }));

/** @example onClientError(server, logger) */
export function onClientError(server: Server, logger: Logger): void {
  answerClientErrorsInOrder(server, {
    refusal: (err) => (err.code === 'HPE_HEADER_OVERFLOW' ? HEADERS_TOO_LARGE : MALFORMED),
    onRefusal: (err) => logger.debug({ code: err.code }, 'client error'),
  });
}
