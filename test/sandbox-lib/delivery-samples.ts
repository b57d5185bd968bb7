// Sample deliveries and answers of every interactive type, as the service would send and an app
// would answer them.
import type { EventType, InteractiveType } from '@platform/sdk';

export const block = { id: 'blk_1', type: 'poll', props: { question: 'Lunch?' }, state: { open: true }, revision: 3, version: 7 };
const tree = { type: 'uiBlock', attrs: { catalog: 1, summary: 'Lunch?' }, content: [{ type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'Close', action: { ref: 'a0' } } }] }] };
const actions = { a0: { name: 'close' }, a1: { name: 'vote', args: { choice: 'yes' } } };
const surface = { kind: 'circle', circleId: 'cir_1', conversationId: null };
const author = { kind: 'member', id: 'mem_2', name: 'Ada' };
const message = { id: 'msg_1', text: 'We should ship', author, createdAt: '2025-01-02T03:04:05.000Z' };

export function envelope(type: string, data: unknown) {
  return {
    id: 'dlv_1',
    type,
    timestamp: '2025-01-02T03:04:05.000Z',
    app: { id: 'app_1', slug: 'polls', version: 2 },
    install: { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace', config: { team: 'a' } },
    installToken: { token: 'platapp_x', expiresAt: '2025-01-02T04:04:05.000Z' },
    actor: { memberId: 'mem_1', name: 'Grace' },
    locale: 'en',
    timeZone: 'UTC',
    data,
  };
}

export const SAMPLES: Record<InteractiveType, { data: unknown; result: unknown }> = {
  'block.render': { data: { block, mode: 'interactive' }, result: { tree, actions } },
  'block.action': {
    data: { block, action: { name: 'vote', args: { choice: 'yes' } }, input: { comment: 'hi' }, tallies: { vote: { yes: 2, no: 1 } }, invocationId: 'inv_1', interactionToken: 'platint_x' },
    result: {
      state: { open: false }, tree, actions, notice: { tone: 'success', text: 'Closed' }, fieldErrors: { comment: 'Too short' },
      openUrl: 'https://example.com/poll/1', final: { summary: 'Lunch at noon' }, notify: [{ memberId: 'mem_2', text: 'Poll closed' }], revalidate: true,
    },
  },
  'block.insert': { data: { type: 'poll', props: { question: 'Lunch?' }, target: { circleId: 'cir_1', conversationId: 'cnv_1' } }, result: { state: { open: true }, tree, actions } },
  'select.search': {
    data: { block, action: { name: 'pick', args: {} }, query: 'ad' },
    result: { options: [{ value: 'mem_2', label: 'Ada', description: 'Engineer' }] },
  },
  'reference.resolve': {
    data: { items: [{ kind: 'issue', patternId: 'issue', params: { org: 'acme', id: '42' }, url: 'https://example.com/acme/issues/42' }] },
    result: {
      items: [
        {
          url: 'https://example.com/acme/issues/42', access: 'granted', visibility: 'public', externalId: '42', title: 'Crash on start', subtitle: 'acme',
          icon: 'https://example.com/i.png', status: { state: 'open', label: 'Open' }, updatedAt: '2025-01-02T03:04:05Z', summary: 'Crash on start', block: { tree, actions },
        },
        { url: 'https://example.com/acme/issues/43', access: 'forbidden' },
        { url: 'https://example.com/acme/issues/44', access: 'unavailable' },
      ],
    },
  },
  'reference.search': { data: { kind: 'issue', query: 'crash', limit: 10 }, result: { items: [{ url: 'https://example.com/acme/issues/42', title: 'Crash', subtitle: 'acme', status: { state: 'open', label: 'Open' } }] } },
  'command.run': {
    data: {
      command: 'poll',
      options: { question: 'Lunch?', count: 3, anonymous: true, who: { kind: 'member', memberId: 'mem_2', name: 'Ada' }, where: { kind: 'circle', circleId: 'cir_1', name: 'Team' }, issue: { kind: 'appObject', id: '42', title: 'Crash' } },
      surface, invocationId: 'inv_2', interactionToken: 'platint_y',
    },
    result: { visibility: 'public', content: { type: 'doc', content: [] }, block: { type: 'poll', props: { question: 'Lunch?' } }, notice: { tone: 'info', text: 'Posted' } },
  },
  'messageAction.run': {
    data: {
      id: 'summarize',
      message: { id: 'msg_1', conversationId: null, text: 'We should ship', author },
      context: {
        level: 'conversation', message, thread: [message], surrounding: [message],
        conversation: { id: 'cnv_1', title: 'Launch', status: null, agreed: null, participants: [author], messages: [message] },
      },
      surface: { kind: 'dm', partnerMemberId: 'mem_3' }, invocationId: 'inv_3', interactionToken: 'platint_z',
    },
    result: { visibility: 'private', notice: { tone: 'neutral', text: 'Nothing to summarize' } },
  },
};

const messageSubject = { id: 'msg_1', circleId: 'cir_1', conversationId: 'cnv_1', text: 'We should ship', author, createdAt: '2025-01-02T03:04:05.000Z', version: 1 };
const referenceSubject = { kind: 'issue', externalId: '42', url: 'https://example.com/acme/issues/42', messageId: 'msg_1', circleId: 'cir_1', conversationId: null, version: 2 };
const conversationSubject = { id: 'cnv_1', circleId: 'cir_1', title: 'Launch', status: 'open', agreed: null, version: 3 };
const decisionSubject = { id: 'dec_1', circleId: 'cir_1', conversationId: 'cnv_1', title: 'Ship Friday', text: 'We ship on Friday', version: 1 };
const installSubject = { id: 'ins_1', workspaceId: 'wsp_1', kind: 'workspace', version: 4 };
const placedBlock = { ...block, circleId: 'cir_1', conversationId: null };

/** A payload of every lifecycle event, as the service sends them. */
export const EVENT_SAMPLES: Record<EventType, unknown> = {
  'post.created': { post: messageSubject },
  'reply.created': { reply: { ...messageSubject, replyTo: 'msg_0' } },
  'app.mentioned': { message: messageSubject },
  'reference.created': { reference: referenceSubject },
  'reference.removed': { reference: referenceSubject },
  'message.filed': { message: messageSubject },
  'conversation.updated': { conversation: conversationSubject },
  'conversation.agreed': { conversation: { ...conversationSubject, agreed: 'Ship it' } },
  'decision.published': { decision: decisionSubject },
  'decision.updated': { decision: decisionSubject },
  'call.recapReady': { call: { id: 'cal_1', circleId: 'cir_1', title: 'Standup', recap: 'All good', participants: [author], version: 1 } },
  'app.installed': { install: installSubject },
  'app.uninstalled': { install: installSubject },
  'app.reconsentRequired': { install: installSubject, currentVersion: 1, pendingVersion: 2, added: [{ kind: 'scope', detail: 'blocks:write' }] },
  'block.created': { block: placedBlock },
  'block.removed': { block: placedBlock },
};
