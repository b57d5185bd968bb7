/**
 * @module authoring/failures
 * How a delivery fails, and what each failure answers. Three kinds, told apart so logs and the
 * service treat them differently: the delivery names something this app version does not have or
 * carries data it cannot read (`DeliveryRejection`, 4xx); the author's handler threw
 * (`HandlerFailure`, 500, details only in the log); the handler answered wrongly (`ResultProblem`,
 * 500 with the field named).
 */
import { describeError } from './context.ts';
import { jsonResponse } from './http.ts';
import type { Logger } from './logger.ts';
import { problemResponse, ResultProblem } from './results.ts';

export class DeliveryRejection extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'DeliveryRejection';
    this.status = status;
    this.code = code;
  }
}

export class HandlerFailure extends Error {
  readonly label: string;
  constructor(label: string, cause: unknown) {
    super(`${label} threw`, { cause });
    this.name = 'HandlerFailure';
    this.label = label;
  }
}

/**
 * Runs an author's handler; a throw becomes a `HandlerFailure` naming it.
 * @example const output = await callHandler('action vote of poll', () => action.handler(ctx));
 */
export async function callHandler<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ResultProblem || error instanceof DeliveryRejection) throw error;
    throw new HandlerFailure(label, error);
  }
}

/**
 * The response for anything thrown while handling a delivery, logged once here.
 * @example catch (error) { return failureResponse(error, log, { type, delivery: envelope.id }) }
 */
export function failureResponse(error: unknown, log: Logger, fields: Record<string, unknown>): Response {
  if (error instanceof ResultProblem) return problemResponse(error, log, fields);
  if (error instanceof DeliveryRejection) {
    log.warn(error.message, { ...fields, code: error.code });
    return jsonResponse({ error: error.code, message: error.message }, error.status);
  }
  if (error instanceof HandlerFailure) {
    log.error(error.message, { ...fields, error: describeError(error.cause) });
    // The cause stays in the log: exception text can carry secrets or data the service has no use for.
    return jsonResponse({ error: 'handler-failed', message: error.message }, 500);
  }
  log.error('Delivery handling failed', { ...fields, error: describeError(error) });
  return jsonResponse({ error: 'internal', message: 'The app failed to handle the delivery' }, 500);
}
