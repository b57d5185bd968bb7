/**
 * The world of the app-messages suites (`POST /v0/replies`, `POST /v0/streams/events`): a stack, a
 * workspace with a public circle that uses chat (with a conversation), a public circle without
 * chat and a private circle; the posting app (`replies:write`, subscribed to posts and replies, so
 * it would hear its own messages if they were sent to it) and a listening app (every
 * `conversations:read` event, a reference kind for tracker links), both installed. Apps and
 * installs are written the way the lifecycle suites write them (test/control-plane/lifecycle/fixtures.ts).
 */
import { startStack, type ApiClient, type CreatedWorkspace, type Stack, type StackOptions } from '../../helpers/stack.ts';
import { eventsOf, seedApp, seedInstall, type SeededApp } from '../lifecycle/fixtures.ts';

export interface AppMessagesWorld {
  stack: Stack;
  ws: CreatedWorkspace;
  chatCircle: string;
  quietCircle: string;
  privateCircle: string;
  conversationId: string;
  poster: SeededApp & { installId: string };
  listener: SeededApp & { installId: string };
  /** `/v0` with a fresh install token of the posting app. */
  app(): Promise<ApiClient>;
  /** Outbox rows written for an install. */
  events(installId: string): Promise<Array<{ id: string; type: string; payload: any; actor: any }>>;
  /** Rows in a table (what a refused request must leave unchanged). */
  count(table: 'messages' | 'conversations' | 'app_streams' | 'outbox_events' | 'app_idempotency_keys'): Promise<number>;
  stop(): Promise<void>;
}

export const TRACKER = { kind: 'issue', patterns: [{ id: 'issue', pattern: 'https://tracker.example.com/:org/issues/:number' }] };

export async function startAppMessagesWorld(options: StackOptions = {}): Promise<AppMessagesWorld> {
  const stack = await startStack(options);
  try {
    const ws = await stack.createWorkspace({ ownerName: 'Olive Owner' });
    const circle = async (body: Record<string, unknown>) => {
      const res = await ws.client.post('/circles', body);
      if (res.status !== 201) throw new Error(`circle: ${JSON.stringify(res.body)}`);
      return res.body.circle.id as string;
    };
    const chatCircle = await circle({ name: 'General', visibility: 'public', chat: true });
    const quietCircle = await circle({ name: 'Quiet', visibility: 'public' });
    const privateCircle = await circle({ name: 'Secret', visibility: 'private' });
    const conversation = await ws.client.post(`/circles/${chatCircle}/conversations`, { title: 'Plans' });
    if (conversation.status !== 201) throw new Error(`conversation: ${JSON.stringify(conversation.body)}`);

    const workspaceId = ws.workspace.id;
    const posterApp = await seedApp(stack, {
      workspaceId, ownerId: ws.owner.id, slug: 'deploys', scopes: ['replies:write', 'conversations:read'], events: ['post.created', 'reply.created', 'app.mentioned'],
    });
    const poster = { ...posterApp, installId: await seedInstall(stack, { appId: posterApp.id, workspaceId, scopes: ['replies:write', 'conversations:read'] }) };
    const listenerApp = await seedApp(stack, {
      workspaceId, ownerId: ws.owner.id, slug: 'tracker', scopes: ['conversations:read'],
      events: ['post.created', 'reply.created', 'app.mentioned', 'reference.created'], references: [TRACKER],
    });
    const listener = { ...listenerApp, installId: await seedInstall(stack, { appId: listenerApp.id, workspaceId, scopes: ['conversations:read'] }) };

    return {
      stack, ws, chatCircle, quietCircle, privateCircle, conversationId: conversation.body.conversation.id, poster, listener,
      async app() {
        const { token } = await stack.controlPlane.tokens.mint('install', { installId: poster.installId, appId: poster.id, workspaceId });
        return stack.v0(token);
      },
      events: (installId) => eventsOf(stack, installId),
      async count(table) {
        const { rows } = await stack.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        return rows[0]!.n;
      },
      stop: () => stack.stop(),
    };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}

/** A one-paragraph editor document. */
export const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
