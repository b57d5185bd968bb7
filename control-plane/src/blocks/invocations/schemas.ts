/**
 * @module blocks/invocations/schemas
 * Client API shapes of command and message-action runs (ours: the spec shows only what the app
 * receives and answers).
 */
import { z } from 'zod';
import { COMMAND_OPTION_TYPES, MESSAGE_ACTION_CONTEXTS, NOTICE_TONES } from '@platform/sdk';
import { Id, Timestamp } from '../../core/http/common.ts';

const InstallChoice = {
  appId: Id.optional().describe('The app; its workspace install is used (its development install when it has only that)'),
  installId: Id.optional(),
};
const oneInstall = (b: { appId?: string | undefined; installId?: string | undefined }) => (b.appId === undefined) !== (b.installId === undefined);
const ONE_INSTALL = { message: 'Send exactly one of appId and installId', path: [] };

export const SurfaceInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('circle'), circleId: Id, conversationId: Id.nullable() }),
  z.strictObject({ kind: z.literal('dm'), partnerMemberId: Id }),
]);

const OptionInput = z.union([
  z.string().max(20_000), z.number(), z.boolean(), z.null(),
  z.strictObject({ kind: z.literal('member'), memberId: Id }),
  z.strictObject({ kind: z.literal('circle'), circleId: Id }),
  z.strictObject({ kind: z.literal('appObject'), id: z.string().max(1_000), title: z.string().max(1_000) }),
]);

export const RunCommandRequest = z.strictObject({
  ...InstallChoice,
  command: z.string().min(1).max(32),
  options: z.record(z.string().max(64), OptionInput).default({}).describe('Only options you filled in; checked against the command in the version the install runs'),
  surface: SurfaceInput,
}).refine(oneInstall, ONE_INSTALL);

export const RunMessageActionRequest = z.strictObject({
  ...InstallChoice,
  actionId: z.string().min(1).max(64),
  messageId: Id,
}).refine(oneInstall, ONE_INSTALL);

const Notice = z.object({ tone: z.enum(NOTICE_TONES), text: z.string() });

export const InvocationView = z.object({
  id: Id,
  kind: z.enum(['command', 'messageAction']),
  name: z.string().describe('The command name or the message action id'),
  appId: Id,
  memberId: Id.describe('Who ran it'),
  surface: z.record(z.string(), z.unknown()),
  status: z.enum(['answered', 'pending', 'failed']),
  visibility: z.enum(['public', 'private']).nullable(),
  answer: z.object({ content: z.unknown().optional(), block: z.object({ type: z.string(), props: z.unknown() }).optional() }).nullable()
    .describe('A private answer, shown only to whoever ran it, for 24 hours'),
  messageIds: z.array(Id).describe('Messages a public answer posted as the app'),
  blockId: Id.nullable(),
  notice: Notice.nullable().describe('Shown only to whoever ran it'),
  error: z.object({ message: z.string() }).nullable().describe('The failure card'),
  pendingUntil: Timestamp.nullable(),
  createdAt: Timestamp,
  sharedAt: Timestamp.nullable().describe('When you shared your private answer (it is a public answer since: `visibility` public, `messageIds`, `blockId`)'),
  dismissedAt: Timestamp.nullable().describe('When you dismissed your private answer (`answer` is null since)'),
});
export type InvocationView = z.output<typeof InvocationView>;

export const InvocationResponse = z.object({ invocation: InvocationView });

export const ShareResponse = z.object({
  outcome: z.enum(['shared', 'failed']).describe('`failed`: the answer could not be posted (see `error`); it stays private unless part of it was posted'),
  invocation: InvocationView,
  error: z.object({ message: z.string() }).nullable(),
});

const CommandOptionView = z.object({
  name: z.string(),
  description: z.string(),
  type: z.enum(COMMAND_OPTION_TYPES),
  required: z.boolean(),
  choices: z.array(z.object({ value: z.string(), label: z.string() })).nullable().describe('Only for `choice` options'),
  objectKind: z.string().nullable().describe('Only for `appObject` options: the app\'s reference kind the value names'),
});

const AvailableApp = z.object({
  installId: Id.describe('Run them with this install (`installId` of `POST /commands/run` and `/message-actions/run`)'),
  installKind: z.enum(['workspace', 'dev']).describe('`dev`: your own development app\'s install'),
  appId: Id,
  name: z.string().describe('The app\'s name'),
  version: z.number().int().describe('The version the install runs, whose manifest these come from'),
  commands: z.array(z.object({ name: z.string(), description: z.string(), options: z.array(CommandOptionView).describe('Required options first') })),
  messageActions: z.array(z.object({ id: z.string(), label: z.string(), icon: z.string().nullable(), context: z.enum(MESSAGE_ACTION_CONTEXTS) })),
});
export type AvailableApp = z.output<typeof AvailableApp>;

export const AvailableCommandsResponse = z.object({ items: z.array(AvailableApp) });
