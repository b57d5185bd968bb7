/**
 * @module testing/deliveries
 * The deliveries a test sends, built as the service builds them: the envelope of every interactive
 * and lifecycle type, with what the service itself makes up (ids, tokens, a block's revision, the
 * action tallies, the surface) filled in when the test leaves it out, and the result checked with
 * the SDK's own schemas (`interactiveDataSchemas`, `eventDataSchemas`), so a test cannot send what
 * the platform never would.
 */
import type { z } from 'zod';
import { interactiveDataSchemas, type InteractiveData, type InteractiveType } from '../delivery/interactive.ts';
import { eventDataSchemas, type EventData } from '../delivery/lifecycle.ts';
import type { EventType } from '../events/index.ts';

/** What the service adds to a delivery's data; a test may give it or leave it to the defaults. */
type Generated = 'invocationId' | 'interactionToken' | 'tallies' | 'mode' | 'surface';
type BlockGenerated = 'id' | 'revision' | 'version';

type Loosen<D> = D extends { block: infer B }
  ? Omit<D, Generated | 'block'> & Partial<Pick<D, Extract<keyof D, Generated>>> & { block: Omit<B, BlockGenerated> & Partial<Pick<B, Extract<keyof B, BlockGenerated>>> }
  : Omit<D, Generated> & Partial<Pick<D, Extract<keyof D, Generated>>>;

/** The data of an interactive delivery as a test gives it (`invocationId`, `block.id`, … optional). */
export type DeliveryInput<T extends InteractiveType> = Loosen<InteractiveData<T>>;

/** Who and where a delivery comes from; every field has a default. */
export interface DeliveryParties {
  readonly app?: { id?: string; slug?: string; version?: number };
  readonly install?: { id?: string; workspaceId?: string; kind?: 'workspace' | 'dev'; config?: Record<string, unknown> };
  readonly actor?: { memberId: string; name: string } | null;
  readonly locale?: string;
  readonly timeZone?: string;
}

export interface Envelope<D = unknown> {
  id: string;
  type: string;
  timestamp: string;
  app: { id: string; slug: string; version: number };
  install: { id: string; workspaceId: string; kind: 'workspace' | 'dev'; config: Record<string, unknown> };
  installToken?: { token: string; expiresAt: string };
  actor?: { memberId: string; name: string };
  locale: string;
  timeZone: string;
  data: D;
}

/** A test's delivery data the platform would not send: what and where. */
export class DeliveryInputError extends TypeError {
  readonly _tag = 'PlatformTestDeliveryInvalid';
  readonly type: string;
  readonly path: ReadonlyArray<PropertyKey>;
  constructor(type: string, path: ReadonlyArray<PropertyKey>, message: string) {
    super(`The ${type} delivery is not one the platform sends: ${path.map(String).join('.') || '(data)'}: ${message}`);
    this.name = 'DeliveryInputError';
    this.type = type;
    this.path = path;
  }
}

const HOUR_MS = 3_600_000;

/** Fills in what the service generates, for the types that have it. */
function withGenerated(type: InteractiveType, data: Record<string, unknown>, sequence: number): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...data };
  const block = data.block as Record<string, unknown> | undefined;
  if (block !== undefined) filled.block = { id: `blk_test${sequence}`, revision: 0, version: 1, ...block };
  if (type === 'block.render') filled.mode ??= 'interactive';
  if (type === 'block.action') filled.tallies ??= {};
  if (type === 'block.action' || type === 'command.run' || type === 'messageAction.run') {
    filled.invocationId ??= `inv_test${sequence}`;
    filled.interactionToken ??= `platint_test${sequence}`;
  }
  if (type === 'command.run' || type === 'messageAction.run') filled.surface ??= { kind: 'circle', circleId: 'cir_test', conversationId: null };
  if (type === 'command.run') filled.options ??= {};
  return filled;
}

function checked<S extends z.ZodType>(schema: S, type: string, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DeliveryInputError(type, issue.path, issue.message);
  }
  // The test's own values (a parse would drop none of them: the schemas are loose), not the parse's copy.
  return data as z.infer<S>;
}

/** The full data of an interactive delivery, checked with its schema. */
export function interactiveData<T extends InteractiveType>(type: T, input: DeliveryInput<T>, sequence: number): InteractiveData<T> {
  return checked(interactiveDataSchemas[type], type, withGenerated(type, input as Record<string, unknown>, sequence)) as InteractiveData<T>;
}

/** The data of a lifecycle delivery, checked with its schema. */
export function eventData<T extends EventType>(type: T, input: EventData<T>): EventData<T> {
  return checked(eventDataSchemas[type], type, input) as EventData<T>;
}

/** An envelope as the service sends it; `installToken` only where the app holds it (self-hosted). */
export function envelope<D>(type: string, data: D, parties: DeliveryParties, options: { id: string; now: number; withInstallToken: boolean }): Envelope<D> {
  const actor = parties.actor === undefined ? { memberId: 'mem_test', name: 'Test Member' } : parties.actor;
  return {
    id: options.id,
    type,
    timestamp: new Date(options.now).toISOString(),
    app: { id: 'app_test', slug: 'test-app', version: 1, ...parties.app },
    install: { id: 'ins_test', workspaceId: 'wsp_test', kind: 'workspace', config: {}, ...parties.install },
    ...(options.withInstallToken ? { installToken: { token: `platapp_test_${options.id}`, expiresAt: new Date(options.now + HOUR_MS).toISOString() } } : {}),
    ...(actor === null ? {} : { actor }),
    locale: parties.locale ?? 'en',
    timeZone: parties.timeZone ?? 'UTC',
    data,
  };
}
