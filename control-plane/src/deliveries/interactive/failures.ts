/**
 * @module deliveries/interactive/failures
 * What a failed interactive delivery means to whoever waits on it. A member sees a short inline
 * error beside the last good tree (the app's own words never reach them: they may hold internals);
 * an app calling the API (a block insert) gets the error tag of the failure, with the reason.
 */
import { PlatformError } from '@platform/sdk';
import type { FailureReason } from './answer.ts';

const MEMBER_TEXT: Record<FailureReason, string> = {
  'timeout': "The app didn't answer in time. Try again.",
  'too-large': 'The app sent an answer too large to show.',
  'refused': "The app's address can't be reached from here.",
  'network': "The app couldn't be reached. Try again.",
  'unreachable': "The app didn't answer. Try again.",
  'relay-not-connected': "The app's development relay isn't running.",
  'no-endpoint': "The app has no address to reach it.",
  'unavailable': 'The app is unavailable right now. Try again shortly.',
  'app-error': 'The app failed to handle this.',
  'install-inactive': 'The app is no longer installed in this workspace.',
  'http-status': 'The app failed to handle this.',
  'invalid-json': 'The app sent an answer that could not be read.',
  'response-invalid': 'The app sent an answer that could not be used.',
  'not-deferrable': 'The app sent an answer that could not be used.',
  'deferral-invalid': 'The app sent an answer that could not be used.',
};

/** The inline error a member sees for a failed delivery. */
export function memberText(reason: FailureReason): string {
  return MEMBER_TEXT[reason];
}

const RESPONSE_INVALID: ReadonlySet<FailureReason> = new Set(['invalid-json', 'response-invalid', 'not-deferrable', 'deferral-invalid']);

/**
 * The error an app's own API call answers when the delivery it caused failed.
 * @example if (outcome.kind === 'failed') throw failureError(outcome);
 */
export function failureError(outcome: { reason: FailureReason; message: string }): PlatformError {
  if (RESPONSE_INVALID.has(outcome.reason)) return new PlatformError('PlatformAppResponseInvalidError', outcome.message);
  if (outcome.reason === 'relay-not-connected') return new PlatformError('PlatformAppRelayNotConnectedError', outcome.message);
  if (outcome.reason === 'install-inactive') return new PlatformError('PlatformAppInstallRevokedError', outcome.message);
  return new PlatformError('PlatformAppDeliveryFailedError', `The delivery to the app failed: ${outcome.message}`, { fields: { reason: outcome.reason } });
}

/**
 * A failure as the Deliveries page lists it: the reason first; answers that fail their schema also
 * name the error they are on our side.
 * @example recordedFailure({ reason: 'response-invalid', message: 'The answer …' }) // 'response-invalid (PlatformAppResponseInvalidError): The answer …'
 */
export function recordedFailure(outcome: { reason: FailureReason; message: string }): string {
  const text = RESPONSE_INVALID.has(outcome.reason) ? `${outcome.reason} (PlatformAppResponseInvalidError): ${outcome.message}` : `${outcome.reason}: ${outcome.message}`;
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
