/**
 * @module workspace/events/subjects
 * The objects event payloads are about, in the shapes of sandbox-lib's `eventDataSchemas`
 * (docs/decisions/contract.md). Every one carries `version`.
 */
import { plainText, type MessageBody } from './content.ts';

/** What event production knows about a message in a circle. */
export interface MessageFacts {
  id: string;
  workspaceId: string;
  circleId: string;
  conversationId: string | null;
  /** The root message of the thread, for replies. */
  replyTo: string | null;
  body: MessageBody;
  author: { id: string; name: string };
  createdAt: Date;
  version: number;
}

export function messageSubject(m: MessageFacts) {
  return {
    id: m.id,
    circleId: m.circleId,
    conversationId: m.conversationId,
    text: plainText(m.body),
    author: { kind: 'member' as const, id: m.author.id, name: m.author.name },
    createdAt: m.createdAt.toISOString(),
    version: m.version,
  };
}

export interface ReferenceMatch {
  kind: string;
  patternId: string;
  params: Record<string, string>;
  url: string;
}

/**
 * A link occurrence in a message. `externalId` is null: the event reports the link as posted or
 * removed; resolving it to an object is the app's `reference.resolve`. `patternId` and `params`
 * say which pattern matched (the fields `reference.resolve` items carry).
 */
export function referenceSubject(m: MessageFacts, match: ReferenceMatch) {
  return {
    kind: match.kind,
    externalId: null,
    url: match.url,
    messageId: m.id,
    circleId: m.circleId,
    conversationId: m.conversationId,
    patternId: match.patternId,
    params: match.params,
    version: m.version,
  };
}

export interface ConversationFacts {
  id: string;
  circleId: string;
  title: string;
  status: string | null;
  agreed: boolean | null;
  version: number;
}

/**
 * `agreed` is text in the payload (sandbox-lib: "the agreed text, or null"); the workspace model
 * records agreement as a flag without a text of its own, so an agreed conversation carries its
 * title (what was agreed on) and any other state carries null. `agreement` keeps the flag itself
 * (`true`, `false` for "no agreement", `null` for undecided).
 */
export function conversationSubject(c: ConversationFacts) {
  return {
    id: c.id,
    circleId: c.circleId,
    title: c.title,
    status: c.status,
    agreed: c.agreed === true ? c.title : null,
    agreement: c.agreed,
    version: c.version,
  };
}
