/**
 * @module delivery/lean/lifecycle
 * `eventDataSchemas` (delivery/lifecycle.ts) as lean checks: the `data` of each lifecycle event.
 */
import type { EventType } from '../../events/index.ts';
import { INSTALL_KINDS } from '../constants.ts';
import { author, blockAsDeliveredShape } from './common.ts';
import { array, closed, extend, int, nullable, object, str, type Check } from './check.ts';
import { id, timestamp, version } from './primitives.ts';

const messageSubject = { id, circleId: id, conversationId: nullable(id), text: str(), author, createdAt: timestamp, version };
const referenceSubject = object({
  kind: str(1), externalId: nullable(str()), url: str(1), messageId: id, circleId: id, conversationId: nullable(id), version,
});
const conversationSubject = object({ id, circleId: id, title: str(), status: nullable(str()), agreed: nullable(str()), version });
const decisionSubject = object({ id, circleId: id, conversationId: nullable(id), title: str(), text: str(), version });
const installSubject = object({ id, workspaceId: id, kind: closed(INSTALL_KINDS, 'workspace'), version });
const placedBlock = object(extend(blockAsDeliveredShape, { circleId: nullable(id), conversationId: nullable(id) }));
const message = object({ message: object(messageSubject) });

export const eventDataChecks: Record<EventType, Check> = {
  'post.created': object({ post: object(messageSubject) }),
  'reply.created': object({ reply: object(extend(messageSubject, { replyTo: id })) }),
  'app.mentioned': message,
  'reference.created': object({ reference: referenceSubject }),
  'reference.removed': object({ reference: referenceSubject }),
  'message.filed': message,
  'conversation.updated': object({ conversation: conversationSubject }),
  'conversation.agreed': object({ conversation: conversationSubject }),
  'decision.published': object({ decision: decisionSubject }),
  'decision.updated': object({ decision: decisionSubject }),
  'call.recapReady': object({
    call: object({ id, circleId: id, title: str(), recap: str(), participants: array(author), version }),
  }),
  'app.installed': object({ install: installSubject }),
  'app.uninstalled': object({ install: installSubject }),
  'app.reconsentRequired': object({
    install: installSubject,
    currentVersion: int(1),
    pendingVersion: int(1),
    added: array(object({ kind: str(), detail: str() })),
  }),
  'block.created': object({ block: placedBlock }),
  'block.removed': object({ block: placedBlock }),
};
