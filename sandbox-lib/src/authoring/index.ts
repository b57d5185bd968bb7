/**
 * @module authoring
 * The app-authoring core: definitions (`defineApp`, `defineBlock`, `defineAction`,
 * `defineReference`, `defineMessageAction`, `defineCommand`, `defineMcp`, `defineTool`), the
 * manifest computed from them, and the app's Web-standard `fetch`. See sandbox-lib/README.md.
 */
export { defineApp, type App, type AppConfig, type AppOptions } from './app.ts';
export { defineBlock, type Block, type BlockConfig, type ChoiceInputConfig, type InsertContext, type RenderContext, type RenderOutput } from './block.ts';
export {
  defineAction, type ActionConfig, type ActionContext, type ActionOutput, type BlockAction, type BlockActions, type BlockView, type InlineAction, type SearchContext,
  type SearchOutput, type SelectOption,
} from './action.ts';
export {
  defineReference, patternDomains, type Reference, type ReferenceActionContext, type ReferenceActionHandler, type ReferenceActionOutput, type ReferenceConfig,
  type ReferenceItem, type ReferenceSearchContext, type ReferenceSearchItem, type ResolutionOutput, type ResolveContext,
} from './reference.ts';
export { defineMessageAction, type MessageAction, type MessageActionConfig, type MessageActionRunContext } from './message-action.ts';
export { defineCommand, type Command, type CommandConfig, type CommandOptionConfig, type CommandOptions, type CommandRunContext, type OptionValueOf } from './command.ts';
export type { InvocationContext, InvocationOutput } from './invocation.ts';
export { eventSubject, type EventContext, type EventHandler, type EventSubject, type EventSubscription, type EventSubscriptions } from './events.ts';
export { defineSchedule, type Schedule, type ScheduleConfig, type ScheduleContext, type ScheduleFiring, type ScheduleHandler } from './schedule.ts';
export { defineQueue, type Queue, type QueueConfig, type QueueContext, type QueueHandler, type QueueMessage } from './queue.ts';
export { defineMcp, defineTool, type Mcp, type McpConfig, type McpTool, type McpToolConfig, type McpToolContext, type McpToolOutput } from './mcp.ts';
export { compileRoutes, type FetchFallback, type RouteContext, type RouteHandler, type RouteMatch, type Router, type Routes } from './routes.ts';
export { ENV_KEYS, secretEnv, envManifest, readEnv, type EnvDeclaration, type EnvRead, type SecretEnv } from './env.ts';
export { deferred, isDeferred, type Deferred, type Visibility } from './deferred.ts';
export { createSeenStore, createVersionStore, type SeenStore, type VersionStore } from './stores.ts';
export { isDelivery } from './delivery.ts';
export { AppDefinitionError, AppManifestInvalidError, type DefinitionPath } from './errors.ts';
export { consoleLogger, silentLogger, type Logger, type LogFields } from './logger.ts';
export { isZodSchema, toJsonSchema, type Infer, type SchemaInput, type SchemaSide } from './schema.ts';
export type { AppEnv, ExecutionContextLike, HandlerContext } from './context.ts';
export type { AppIdentity } from './manifest.ts';
