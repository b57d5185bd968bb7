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
import { LIMITS } from '@platform/sdk';
import { visibleCircle } from '../../workspace/circles/access.ts';
import type { MessagesService } from '../../workspace/messages/service.ts';
import type { Db } from '../../core/db/db.ts';
import { links } from '../../workspace/events/content.ts';
import { circleForReach } from '../../workspace/events/store.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { claimingInstalls, matchLinks, type LinkMatch, type LinkPlace } from './matching.ts';
import type { ReferenceResolver } from './resolve.ts';
import { cachedLinks, type RecordRow } from './store.ts';
import type { LinkCard } from './view.ts';

export interface MemberLinks {
  /** The cards of a message the member can see, in the order its links appear. */
  ofMessage(actor: Actor, messageId: string): Promise<{ items: LinkCard[] }>;
  /** One entry per URL, in order: its card, or null when no app within reach claims it. */
  preview(actor: Actor, body: { urls: string[]; circleId?: string | undefined }): Promise<{ items: Array<LinkCard | null> }>;
  /**
   * The card of a message the member can see that shows the record `referenceId`, as stored
   * (nothing is resolved); undefined when none of the message's cards does.
   */
  storedCard(actor: Actor, messageId: string, referenceId: string): Promise<{ match: LinkMatch; record: RecordRow } | undefined>;
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

  /** The links of a message the member can see that get cards: claimed within reach, the first 20. */
  async function messageMatches(actor: Actor, messageId: string): Promise<LinkMatch[]> {
    const message = await deps.messages.get(actor, messageId);
    if (message.circleId === null) return [];
    const urls = links({ content: message.content, markdown: message.markdown });
    if (urls.length === 0) return [];
    const installs = await claimingInstalls(db, await place(actor, message.circleId));
    return matchLinks(installs, urls).filter(isMatch).slice(0, LIMITS.references.urlsResolvedPerDelivery);
  }

  return {
    async ofMessage(actor, messageId) {
      const matches = await messageMatches(actor, messageId);
      return { items: matches.length === 0 ? [] : await deps.resolver.cards(who(actor), matches) };
    },

    async storedCard(actor, messageId, referenceId) {
      const matches = await messageMatches(actor, messageId);
      const stored = await cachedLinks(db, matches.map((m) => ({ installId: m.install.target.installId, kind: m.kind, url: m.url })));
      for (const match of matches) {
        const row = stored.find((r) => r.install_id === match.install.target.installId && r.kind === match.kind && r.url === match.url);
        if (row?.record?.id === referenceId) return { match, record: row.record };
      }
      return undefined;
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
