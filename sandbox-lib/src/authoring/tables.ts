/**
 * @module authoring/tables
 * The dispatch tables `defineApp` builds from the definitions: what handles each block type,
 * reference kind, command, message action and event, and the run a runner is handed. Lookups
 * only; no logic. The tables, the runs and the handlers of the pieces refer to one another, so
 * they are one module (the pieces' contexts and outputs are in piece-types.ts).
 */
import type { EventType } from '../events/index.ts';
import type { InteractiveType } from '../delivery/index.ts';
import type { BlockHandlers } from './block.ts';
import type { Scope } from '../scopes/index.ts';
import type { InvocationOutput } from './invocation.ts';
import type { CommandRunContext, MessageActionRunContext, ReferenceActionHandler, ReferenceConfig } from './piece-types.ts';
import type { EventEntry } from './events.ts';
import type { ContextDeps, DeliveryEnvelope } from './context.ts';
import type { Deferred } from './deferred.ts';
import type { Check } from '../delivery/lean/check.ts';
import type { ScheduleHandler, ScheduleRun } from './schedule.ts';
import type { QueueRun } from './queue.ts';

export interface AppTables {
  readonly blocks: ReadonlyMap<string, BlockHandlers>;
  readonly references: ReadonlyMap<string, ReferenceHandlers>;
  readonly commands: ReadonlyMap<string, InvocationHandlers<CommandRunContext<any>>>;
  readonly messageActions: ReadonlyMap<string, InvocationHandlers<MessageActionRunContext>>;
  readonly events: ReadonlyMap<EventType, EventEntry>;
  /** Schedule name to handler (`schedule.fired`). */
  readonly schedules: ReadonlyMap<string, ScheduleHandler>;
  /** The runner of `schedule.fired`, when the app defines schedules. */
  readonly fireSchedule?: ScheduleRun['run'];
  /** The queue consumer (`queue.message`) and its runner, when the app defines one. */
  readonly queue?: QueueRun;
  /** The runners the defined pieces brought (reference kinds, commands, message actions). */
  readonly runners: Partial<Record<InteractiveType, Runner>>;
}

/** Handles one interactive delivery of a type, and checks what it answers. */
export interface Runner {
  readonly run: (run: InteractiveRun<any>) => Promise<BlockAnswer>;
  /** The result's check (the lean twin of its schema); absent only where the answer is the SDK's own. */
  readonly result?: Check;
}

/** What a piece's definition attaches so that `defineApp` can run its deliveries. */
export interface PieceRunners {
  readonly runners: Partial<Record<InteractiveType, Runner>>;
}

/** One interactive delivery being handled: its envelope (data already read by its schema). */
export interface InteractiveRun<D = Record<string, unknown>> {
  readonly envelope: DeliveryEnvelope<D>;
  readonly type: InteractiveType;
  readonly tables: AppTables;
  readonly deps: ContextDeps;
}

/** What a block handler answered: a `200` body, or a deferral. */
export type BlockAnswer = { kind: 'result'; body: unknown } | { kind: 'deferred'; deferral: Deferred };

export interface ReferenceHandlers extends PieceRunners {
  readonly resolve: ReferenceConfig['resolve'];
  readonly search?: ReferenceConfig['search'];
  readonly actions: ReadonlyMap<string, ReferenceActionHandler>;
  /** Runs a click in a card of this kind (`block.action` with `data.block.reference`). */
  readonly runAction: (run: InteractiveRun<any>) => Promise<BlockAnswer>;
  readonly scopes: readonly Scope[];
  /** Each pattern's host, in order (malformed patterns skipped), for the manifest's `domains`. */
  readonly hosts: readonly string[];
}

/** Handler plus the scopes it needs for its own API calls. */
export interface InvocationHandlers<C> extends PieceRunners {
  readonly handler: (ctx: C) => InvocationOutput | Promise<InvocationOutput>;
  readonly scopes: readonly Scope[];
}
