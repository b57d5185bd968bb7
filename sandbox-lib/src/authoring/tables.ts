/**
 * @module authoring/tables
 * The dispatch tables `defineApp` builds from the definitions: what handles each block type,
 * reference kind, command, message action and event. Lookups only; no logic.
 */
import type { EventType } from '../events/index.ts';
import type { InteractiveType } from '../delivery/index.ts';
import type { BlockHandlers } from './block.ts';
import type { ReferenceHandlers } from './reference.ts';
import type { InvocationHandlers } from './invocation.ts';
import type { CommandRunContext } from './command.ts';
import type { MessageActionRunContext } from './message-action.ts';
import type { EventEntry } from './events.ts';
import type { ContextDeps, DeliveryEnvelope } from './context.ts';
import type { BlockAnswer } from './interactive-blocks.ts';
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
