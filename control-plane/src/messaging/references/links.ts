/**
 * @module messaging/references/links
 * The member's side of link cards (client API):
 *
 * - a message's cards are read on demand (`GET /client/v1/messages/{messageId}/references`): the
 *   links of the message as the events feature reads them (`links()`), the first 20 that an
 *   installed app within reach of the message's circle claims, each resolved or read from its
 *   stored record (messaging/references/resolve.ts). Direct messages are in no circle: no app sees their
 *   links, so they have no cards (as they cause no events).
 * - a preview (`POST /client/v1/references/preview`) resolves up to 20 URLs pasted in a composer,
 *   in a circle the member can see (reach rule) or, without `circleId`, for workspace installs and
 *   the member's own development installs.
 */
import { LIMITS } from '@platform/sandbox-lib';
import { visibleCircle } from '../../workspace/circles/access.ts';
import type { MessagesService } from '../../workspace/messages/service.ts';
import type { Db } from '../../core/db/db.ts';
import { links } from '../../workspace/events/content.ts';
import { circleForReach } from '../../workspace/events/store.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { claimingInstalls, matchLinks, type LinkMatch, type LinkPlace } from './matching.ts';
import type { ReferenceResolver } from './resolve.ts';
import type { LinkCard } from './view.ts';

export interface MemberLinks {
  /** The cards of a message the member can see, in the order its links appear. */
  ofMessage(actor: Actor, messageId: string): Promise<{ items: LinkCard[] }>;
  /** One entry per URL, in order: its card, or null when no app within reach claims it. */
  preview(actor: Actor, body: { urls: string[]; circleId?: string | undefined }): Promise<{ items: Array<LinkCard | null> }>;
}

const isMatch = (m: LinkMatch | null): m is LinkMatch => m !== null;

export function createMemberLinks(deps: { db: Db; messages: Pick<MessagesService, 'get'>; resolver: ReferenceResolver }): MemberLinks {
  const { db } = deps;

  async function place(actor: Actor, circleId: string | null): Promise<LinkPlace> {
    if (circleId === null) return { workspaceId: actor.workspaceId, circle: null, memberId: actor.memberId };
    await visibleCircle(db, actor, circleId);
    const facts = await circleForReach(db, actor.workspaceId, circleId);
    return {
      workspaceId: actor.workspaceId, memberId: actor.memberId,
      // The circle was just seen; should it vanish meanwhile, a connected circle is out of every reach.
      circle: { id: circleId, visibility: facts?.visibility ?? 'private', connected: facts?.connected ?? true, readOnly: facts?.read_only ?? true },
    };
  }

  const who = (actor: Actor) => ({ memberId: actor.memberId, name: actor.name });

  return {
    async ofMessage(actor, messageId) {
      const message = await deps.messages.get(actor, messageId);
      if (message.circleId === null) return { items: [] };
      const urls = links({ content: message.content, markdown: message.markdown });
      if (urls.length === 0) return { items: [] };
      const installs = await claimingInstalls(db, await place(actor, message.circleId));
      const matches = matchLinks(installs, urls).filter(isMatch).slice(0, LIMITS.references.urlsResolvedPerDelivery);
      return { items: await deps.resolver.cards(who(actor), matches) };
    },

    async preview(actor, body) {
      const installs = await claimingInstalls(db, await place(actor, body.circleId ?? null));
      const matches = matchLinks(installs, body.urls);
      const cards = await deps.resolver.cards(who(actor), matches.filter(isMatch));
      let next = 0;
      return { items: matches.map((m) => (m === null ? null : cards[next++]!)) };
    },
  };
}
