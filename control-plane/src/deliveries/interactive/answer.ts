/**
 * @module deliveries/interactive/answer
 * Reading an app's answer to an interactive delivery (spec, "Endpoints the service calls on the
 * app", rules 5 and 7): `200` with a body matching the type's result schema; `202` only for the
 * deferrable types, with an empty body for `block.action` and an InvocationDeferral for commands
 * and message actions ("any other body fails the run"); anything else fails. A body that is not
 * JSON, or JSON outside the schema, is `PlatformAppResponseInvalidError` on our side.
 */
import { z } from 'zod';
import {
  ActionResultSchema, DEFERRABLE_TYPES, interactiveDeferralSchemas, interactiveResultSchemas, type InteractiveResult, type InteractiveType,
} from '@platform/sdk';
import type { DeliveryFailure } from '../targets/target.ts';

/** Why an interactive delivery failed: the target's reasons, then the ones reading the answer adds. */
export type FailureReason =
  | DeliveryFailure
  | 'install-inactive' | 'http-status' | 'invalid-json' | 'response-invalid' | 'not-deferrable' | 'deferral-invalid';

export type ReadAnswer<T extends InteractiveType> =
  | { kind: 'result'; result: InteractiveResult<T> }
  | { kind: 'deferred'; deferral: Record<string, unknown> | null }
  | { kind: 'failed'; reason: FailureReason; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `block.action`'s answer as read here: the SDK's ActionResult, but its action table and its
 * state's size are left to the checks every consumer runs next (the tree's `validateTree` checks
 * the table with the tree, the state is measured and checked against the block's schema), so an
 * answer's table is read once and not twice (its 20-odd entries cost zod as much as parsing the
 * whole answer). A `readOnly` action's state, tree and table are ignored, checked or not.
 */
const ActionAnswerSchema = z.looseObject({
  ...ActionResultSchema.shape,
  state: z.record(z.string(), z.unknown()).optional(),
  actions: z.unknown().optional(),
}).refine((result) => (result.tree === undefined) === (result.actions === undefined), { message: 'Send tree and actions together', path: ['actions'] });

const resultSchemas: Record<InteractiveType, z.ZodType> = { ...interactiveResultSchemas, 'block.action': ActionAnswerSchema };

function parseJson(body: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(body)) };
  } catch {
    return { ok: false };
  }
}

/** The first zod issue, as "at a.b: message" (bounded: the text lands in logs and the Deliveries page). */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.join('.');
  return `at ${where}: ${(issue?.message ?? 'does not match').slice(0, 300)}`;
}

const isBlank = (body: Uint8Array) => body.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09);

function readDeferral(type: InteractiveType, body: Uint8Array): ReadAnswer<InteractiveType> {
  if (!(DEFERRABLE_TYPES as readonly string[]).includes(type)) {
    return { kind: 'failed', reason: 'not-deferrable', message: `The app answered 202, but ${type} cannot be deferred` };
  }
  if (type === 'block.action') {
    // "An empty body": nothing at all, or an empty JSON object.
    if (isBlank(body)) return { kind: 'deferred', deferral: null };
    const json = parseJson(body);
    if (json.ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) && Object.keys(json.value).length === 0) {
      return { kind: 'deferred', deferral: null };
    }
    return { kind: 'failed', reason: 'deferral-invalid', message: 'A deferred block action answers 202 with an empty body' };
  }
  const json = parseJson(body);
  if (!json.ok) return { kind: 'failed', reason: 'deferral-invalid', message: 'The 202 body is not JSON' };
  const schema = interactiveDeferralSchemas[type as 'command.run'];
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return { kind: 'failed', reason: 'deferral-invalid', message: `The 202 body does not match InvocationDeferral ${firstIssue(parsed.error)}` };
  return { kind: 'deferred', deferral: parsed.data as Record<string, unknown> };
}

/**
 * @example
 * const answer = readAnswer('block.action', 200, bytes); // { kind: 'result', result: { state: … } }
 */
export function readAnswer<T extends InteractiveType>(type: T, status: number, body: Uint8Array): ReadAnswer<T> {
  if (status === 202) return readDeferral(type, body) as ReadAnswer<T>;
  if (status !== 200) return { kind: 'failed', reason: 'http-status', message: `The app answered ${status}` };
  const json = parseJson(body);
  if (!json.ok) return { kind: 'failed', reason: 'invalid-json', message: 'The answer is not JSON' };
  const parsed = resultSchemas[type].safeParse(json.value);
  if (!parsed.success) {
    return { kind: 'failed', reason: 'response-invalid', message: `The answer does not match the ${type} result schema ${firstIssue(parsed.error)}` };
  }
  return { kind: 'result', result: parsed.data as InteractiveResult<T> };
}
