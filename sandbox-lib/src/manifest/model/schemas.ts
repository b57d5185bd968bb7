/**
 * @module manifest/model/schemas
 * The manifest and its parts as zod schemas (spec "Manifest"). A manifest is an input to the
 * service, so every object is strict: an unknown field is an error. Identifier formats and text
 * bounds live here; rules that need the whole manifest or the service's knowledge (counts,
 * duplicates, scopes, hosts, budgets) live in `rules/`, run by `validateManifest`.
 * Arrays and flags the spec always lists default to empty / false, so a hand-written manifest
 * can leave them out; `hosting` defaults to `platform` as the spec says.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.ts';
import { ScopeSchema } from '../../scopes/index.ts';
import { EventTypeSchema } from '../../events/index.ts';
import { isHostname, parseEgressHost } from '../../hosts/index.ts';
import { hasUserinfo, USERINFO_MESSAGE } from '../../wire/predicates.ts';
import { ActionNameSchema, HttpsUrlSchema, label, nameLabel, text } from '../../wire/primitives.ts';
import { utf8Length } from '../../json-schema/json-size.ts';
import { FORMATS } from '../../wire/predicates.ts';
import { MESSAGE_ACTION_CONTEXTS } from './constants.ts';

const ID = LIMITS.identifiers;
const TEXT = LIMITS.manifestText;

const identifier = (pattern: RegExp, what: string) => z.string().regex(pattern, what);

export const AppSlugSchema = identifier(FORMATS.appSlug.pattern, FORMATS.appSlug.message);
export const BlockTypeSchema = identifier(ID.blockType, 'Block types are 1 to 48 characters from a-z, 0-9 and -');
export const ReferenceKindSchema = identifier(ID.referenceKind, 'Reference kinds are 1 to 48 characters from a-z, 0-9 and -');
export const InputNameSchema = identifier(ID.inputName, 'Input names are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -');
export const ChoiceValueSchema = identifier(ID.choiceValue, 'Choice values are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -');
export const PatternIdSchema = identifier(ID.patternId, 'Pattern ids are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -');
export const MessageActionIdSchema = identifier(ID.messageActionId, 'Message action ids are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -');
export const CommandOptionNameSchema = identifier(ID.commandOptionName, 'Command option names are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -');
export const CommandNameSchema = identifier(ID.commandName, 'Command names are a lowercase letter then up to 31 of a-z, 0-9 and -');
export const SectionNameSchema = identifier(ID.sectionName, 'Section names are 1 to 48 characters from A-Z, a-z, 0-9, _ and -');
export const ScheduleNameSchema = identifier(ID.scheduleName, 'Schedule names are 1 to 48 characters from a-z, 0-9 and -');
export const EnvVarKeySchema = identifier(ID.envVarKey, 'Environment variable keys are a letter or _, then up to 63 letters, digits or _');

/** A JSON Schema as written by the app: an object or a boolean. Its budget is checked by `validateManifest`. */
export const JsonSchemaSchema = z.union([z.boolean(), z.record(z.string(), z.unknown())], { error: 'Must be a JSON Schema (an object or a boolean)' });
export type JsonSchema = z.infer<typeof JsonSchemaSchema>;

const AssetIdSchema = z.string().min(1).max(TEXT.assetId);

export const HintsSchema = z.strictObject({ readOnly: z.boolean(), destructive: z.boolean(), idempotent: z.boolean() });

export const ActionDefinitionSchema = z.strictObject({
  name: ActionNameSchema,
  description: text(TEXT.actionDescription).optional(),
  args: JsonSchemaSchema.optional(),
  input: JsonSchemaSchema.optional(),
  hints: HintsSchema,
  scopes: z.array(ScopeSchema).default([]),
  agent: z.boolean().default(false),
});

export const InputDefinitionSchema = z.strictObject({
  kind: z.literal('choice'),
  values: z.array(ChoiceValueSchema),
  multiple: z.boolean().optional(),
  anonymous: z.boolean().optional(),
});

export const BlockDefinitionSchema = z.strictObject({
  type: BlockTypeSchema,
  title: label(TEXT.blockTitle),
  description: text(TEXT.blockDescription).optional(),
  icon: AssetIdSchema.optional(),
  insertable: z.boolean().default(false),
  reopenable: z.boolean().default(false),
  props: JsonSchemaSchema,
  state: JsonSchemaSchema,
  staleAfter: z.int()
    .min(LIMITS.blockData.staleAfterMinSeconds, 'staleAfter is 60 seconds to 30 days')
    .max(LIMITS.blockData.staleAfterMaxSeconds, 'staleAfter is 60 seconds to 30 days')
    .optional(),
  inputs: z.record(InputNameSchema, InputDefinitionSchema).default({}),
  sections: z.array(SectionNameSchema).default([]),
  actions: z.array(ActionDefinitionSchema).default([]),
});

/** One URL pattern of a reference kind; the syntax is in `manifest/model/patterns.ts`. */
export const ReferencePatternDefinitionSchema = z.strictObject({ id: PatternIdSchema, pattern: z.string() });

export const ReferenceDefinitionSchema = z.strictObject({
  kind: ReferenceKindSchema,
  title: label(TEXT.referenceTitle),
  patterns: z.array(ReferencePatternDefinitionSchema).default([]),
  searchable: z.boolean().default(false),
  hasBlock: z.boolean().default(false),
});

export { MESSAGE_ACTION_CONTEXTS };
export const MessageActionContextSchema = z.enum(MESSAGE_ACTION_CONTEXTS);

export const MessageActionDefinitionSchema = z.strictObject({
  id: MessageActionIdSchema,
  label: label(TEXT.messageActionLabel),
  icon: AssetIdSchema.optional(),
  context: MessageActionContextSchema.optional(),
});

export const COMMAND_OPTION_TYPES = ['string', 'integer', 'number', 'boolean', 'choice', 'member', 'circle', 'appObject'] as const;

export const CommandOptionSchema = z.strictObject({
  name: CommandOptionNameSchema,
  description: text(TEXT.optionDescription, 1),
  type: z.enum(COMMAND_OPTION_TYPES),
  required: z.boolean().default(false),
  choices: z.array(z.strictObject({ value: ChoiceValueSchema, label: label(TEXT.choiceLabel) })).optional(),
  objectKind: ReferenceKindSchema.optional(),
});

export const CommandDefinitionSchema = z.strictObject({
  name: CommandNameSchema,
  description: text(TEXT.commandDescription, 1),
  options: z.array(CommandOptionSchema).default([]),
});

export const EnvVarDeclarationSchema = z.strictObject({ key: EnvVarKeySchema, secret: z.boolean(), required: z.boolean() })
  .refine((env) => !env.secret || env.required, { message: 'Secret environment variables are always required', path: ['required'] });

/** A value of an environment variable, set per environment through the tooling endpoints. */
export const EnvVarValueSchema = z.string().refine((value) => utf8Length(value) <= LIMITS.manifest.envValueBytes, 'Environment variable values are at most 5 KB');

/** A tool of the app's MCP server, listed so that access widening can see what it may do. */
export const McpToolDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'MCP tool names are 1 to 64 characters from A-Z, a-z, 0-9, _, . and -'),
  description: text(TEXT.mcpToolDescription).optional(),
  hints: HintsSchema,
});

export const McpDefinitionSchema = z.strictObject({
  url: HttpsUrlSchema.refine((value) => !hasUserinfo(value), USERINFO_MESSAGE),
  auth: z.enum(['oauth', 'platform', 'none']),
  tools: z.array(McpToolDefinitionSchema).optional(),
});

/**
 * A schedule (ours, docs/decisions/schedules.md): a cron expression and the IANA time zone it is
 * read in (default UTC). Whether the expression parses, fires at most once a minute and names a
 * known zone is `rules/schedules.ts`.
 */
export const ScheduleDefinitionSchema = z.strictObject({
  name: ScheduleNameSchema,
  cron: z.string().min(1, 'The cron expression is empty').max(LIMITS.schedules.cronLength, `Cron expressions are at most ${LIMITS.schedules.cronLength} characters`),
  timeZone: z.string().min(1).max(LIMITS.schedules.timeZoneLength, `Time zones are at most ${LIMITS.schedules.timeZoneLength} characters`).default('UTC'),
});

/** The app's queue consumer (ours, docs/decisions/queues.md): attempts per message before it is a dead letter. */
export const QueueDefinitionSchema = z.strictObject({
  maxAttempts: z.int()
    .min(LIMITS.queues.maxAttemptsMin, `maxAttempts is ${LIMITS.queues.maxAttemptsMin} to ${LIMITS.queues.maxAttemptsMax}`)
    .max(LIMITS.queues.maxAttemptsMax, `maxAttempts is ${LIMITS.queues.maxAttemptsMin} to ${LIMITS.queues.maxAttemptsMax}`)
    .default(LIMITS.queues.maxAttemptsDefault),
});

/**
 * `https://`, or `http://` to a loopback host for a self-hosted app under development; never with a
 * user name or password in it (`hasUserinfo`).
 */
export const EndpointUrlSchema = z.string().max(LIMITS.references.urlLength).refine((value) => {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return url.hostname !== '';
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}, 'The endpoint is an https:// URL (http:// only to localhost)').refine((value) => !hasUserinfo(value), USERINFO_MESSAGE);

/** `host`, `*.host`, `host:port` or `*.host:port`: without a port only 443 may be called. */
export const EgressHostSchema = z.string().superRefine((value, ctx) => {
  const parsed = parseEgressHost(value);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});
export const ClaimedDomainSchema = z.string().refine(isHostname, 'Domains are lowercase host names');

export const ManifestSchema = z.strictObject({
  schemaVersion: z.literal(1),
  name: nameLabel(TEXT.appName),
  slug: AppSlugSchema,
  description: text(TEXT.appDescription).optional(),
  icon: AssetIdSchema.optional(),
  hosting: z.enum(['self', 'platform']).default('platform'),
  endpoint: z.strictObject({ url: EndpointUrlSchema }).optional(),
  scopes: z.array(ScopeSchema).default([]),
  egressHosts: z.array(EgressHostSchema).default([]),
  domains: z.array(ClaimedDomainSchema).default([]),
  env: z.array(EnvVarDeclarationSchema).default([]),
  installConfig: JsonSchemaSchema.optional(),
  blocks: z.array(BlockDefinitionSchema).default([]),
  references: z.array(ReferenceDefinitionSchema).default([]),
  messageActions: z.array(MessageActionDefinitionSchema).default([]),
  commands: z.array(CommandDefinitionSchema).optional(),
  events: z.array(EventTypeSchema).default([]),
  mcp: McpDefinitionSchema.optional(),
  // Ours; left out when there are none, so manifests without schedules stay as they were.
  schedules: z.array(ScheduleDefinitionSchema).optional(),
  // Ours; present when the app consumes its queue.
  queue: QueueDefinitionSchema.optional(),
});

export type Manifest = z.output<typeof ManifestSchema>;
/** What an app may write: defaults not yet applied. */
export type ManifestInput = z.input<typeof ManifestSchema>;
export type BlockDefinition = z.output<typeof BlockDefinitionSchema>;
export type ActionDefinition = z.output<typeof ActionDefinitionSchema>;
export type ActionHints = z.output<typeof HintsSchema>;
export type InputDefinition = z.output<typeof InputDefinitionSchema>;
export type ReferenceDefinition = z.output<typeof ReferenceDefinitionSchema>;
export type ReferencePatternDefinition = z.output<typeof ReferencePatternDefinitionSchema>;
export type MessageActionDefinition = z.output<typeof MessageActionDefinitionSchema>;
export type MessageActionContext = z.output<typeof MessageActionContextSchema>;
export type CommandDefinition = z.output<typeof CommandDefinitionSchema>;
export type CommandOption = z.output<typeof CommandOptionSchema>;
export type CommandOptionType = (typeof COMMAND_OPTION_TYPES)[number];
export type EnvVarDeclaration = z.output<typeof EnvVarDeclarationSchema>;
export type QueueDefinition = z.output<typeof QueueDefinitionSchema>;
export type ScheduleDefinition = z.output<typeof ScheduleDefinitionSchema>;
export type McpDefinition = z.output<typeof McpDefinitionSchema>;
export type McpToolDefinition = z.output<typeof McpToolDefinitionSchema>;
