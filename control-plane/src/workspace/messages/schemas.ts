/**
 * @module workspace/messages/schemas
 * Wire shapes of messages. A message carries exactly one of `content` (the editor's JSON document,
 * `{ type: "doc", content: [...] }`) and `markdown`.
 */
import { z } from 'zod';
import { CLIENT_LIMITS } from '../../core/http/client-limits.ts';
import { Id, Timestamp, page } from '../../core/http/common.ts';
import { jsonDepth } from '../../core/http/json.ts';
import { graphemeLength } from '../../core/http/text.ts';

const NodeType = z.string().min(1).max(64);
const Attrs = z.record(z.string().max(64), z.unknown());
const Mark = z.strictObject({ type: NodeType, attrs: Attrs.optional() });

export const DocNode = z
  .strictObject({
    type: NodeType,
    attrs: Attrs.optional(),
    text: z.string().optional(),
    marks: z.array(Mark).optional(),
    get content() {
      return z.array(DocNode).optional();
    },
  })
  .meta({ id: 'DocNode' });

export const Document = z
  .strictObject({ type: z.literal('doc'), content: z.array(DocNode).min(1, 'A document needs content') })
  .refine((doc) => jsonDepth(doc) <= CLIENT_LIMITS.contentDepth, `A document nests at most ${CLIENT_LIMITS.contentDepth} levels of JSON`)
  .refine((doc) => Buffer.byteLength(JSON.stringify(doc)) <= CLIENT_LIMITS.contentBytes, `A document is at most ${CLIENT_LIMITS.contentBytes} bytes of JSON`)
  .meta({ id: 'Document' });
export type Document = z.output<typeof Document>;

export const Markdown = z
  .string()
  .refine((s) => s.trim().length > 0, 'Needs visible text')
  .refine((s) => graphemeLength(s) <= CLIENT_LIMITS.markdown, `Keep this to ${CLIENT_LIMITS.markdown} characters or fewer`)
  .meta({ maxLength: CLIENT_LIMITS.markdown });

/** `content` xor `markdown`, plus any other fields of the request. */
function withBody<S extends z.ZodRawShape>(shape: S) {
  return z
    .strictObject({ ...shape, content: Document.optional(), markdown: Markdown.optional() })
    .refine((v) => {
      const body = v as { content?: unknown; markdown?: unknown };
      return (body.content === undefined) !== (body.markdown === undefined);
    }, { message: 'Send exactly one of content and markdown', path: [] })
    .meta({ description: 'Exactly one of `content` (editor document) and `markdown`.' });
}

export const PostMessageBody = withBody({});
export const DirectMessageBody = withBody({ to: Id.describe('The member the message goes to') });
export const FileMessageBody = z.strictObject({ conversationId: Id });

const MemberAuthor = z.object({ kind: z.literal('member'), memberId: Id.nullable(), name: z.string().nullable() });
/** A message an app posted (a block inserted through the app API, a reply or stream event): `memberId` stays, null, for clients reading only it. */
const AppAuthor = z.object({
  kind: z.literal('app'), memberId: z.null(), appId: Id.nullable().describe('null once the app is deleted'), name: z.string().nullable(),
  avatarUrl: z.string().optional().describe('A stream event\'s persona avatar (`https://`), shown instead of the app\'s icon; absent: the app\'s icon'),
});
export const MessageAuthor = z.discriminatedUnion('kind', [MemberAuthor, AppAuthor]).meta({ id: 'MessageAuthor' });

export const Message = z
  .object({
    id: Id,
    circleId: Id.nullable().describe('null for direct messages'),
    conversationId: Id.nullable().describe('null for unfiled chat messages and direct messages'),
    replyTo: Id.nullable().describe('The root message of the thread this reply belongs to'),
    recipientId: Id.nullable().describe('Direct messages: the other member'),
    author: MessageAuthor,
    content: Document.nullable(),
    markdown: z.string().nullable(),
    createdAt: Timestamp,
    filedAt: Timestamp.nullable(),
    blockId: Id.nullable().describe('The block this message carries (view it at `/blocks/{blockId}`); `content` is then its summary'),
  })
  .meta({ id: 'Message' });
export type Message = z.output<typeof Message>;

export const MessageResponse = z.object({ message: Message });
export const MessagePage = page(Message);
