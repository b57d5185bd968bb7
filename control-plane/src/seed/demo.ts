/**
 * @module seed/demo
 * The demo workspace `npm start` creates once: an owner, a member, a public circle with chat, a
 * private circle, and a conversation with a few messages. Everything goes through the same services
 * as the API, inside one transaction under an advisory lock, so two processes starting at once
 * against one database seed it once, and a crash half-way leaves nothing behind.
 */
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Actor } from '../core/auth/actor.ts';
import { createWorkspaceArea } from '../wiring/workspace.ts';

const META_KEY = 'demo_workspace';

export interface DemoWorkspace {
  workspace: { id: string; name: string };
  owner: { id: string; name: string };
  member: { id: string; name: string };
  circles: { public: string; private: string };
  conversationId: string;
}

export interface SeedResult {
  created: boolean;
  demo: DemoWorkspace;
  /** Only when `created`: the keys were shown once, now. */
  keys?: { owner: string; member: string };
}

const actorOf = (m: { id: string; name: string }, workspaceId: string, role: Actor['role']): Actor =>
  ({ memberId: m.id, workspaceId, name: m.name, role, keyId: 'seed' });

/**
 * @example
 * const { created, demo, keys } = await seedDemo({ db, clock });
 */
export async function seedDemo(deps: { db: Db; clock: Clock }): Promise<SeedResult> {
  return deps.db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('platform:demo-seed:' || current_schema()))`);
    const { rows } = await tx.query<{ value: DemoWorkspace }>('select value from platform_meta where key = $1', [META_KEY]);
    if (rows[0] !== undefined) return { created: false, demo: rows[0].value };

    const s = createWorkspaceArea({ db: tx, clock: deps.clock });
    const { workspace, owner, apiKey: ownerKey } = await s.workspaces.create({ name: 'Demo workspace', ownerName: 'Ada Owner' }, tx);
    const ada = actorOf(owner, workspace.id, 'owner');
    const { member, apiKey: memberKey } = await s.members.create(ada, { name: 'Max Member', role: 'member' });
    const max = actorOf(member, workspace.id, 'member');

    const general = await s.circles.create(ada, { name: 'General', visibility: 'public', chat: true });
    await s.circles.addMember(ada, general.id, member.id);
    const leads = await s.circles.create(ada, { name: 'Leads', visibility: 'private' });

    const conversation = await s.conversations.create(ada, general.id, { title: 'Welcome to the platform', status: 'open' });
    const hello = await s.messages.postInConversation(ada, conversation.id, {
      markdown: 'Welcome! This workspace was created by `npm start` so there is something to look at.',
    });
    await s.messages.reply(max, hello.id, {
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Thanks, glad to be here.' }] }] },
    });
    await s.messages.postInConversation(max, conversation.id, { markdown: 'Apps will show up here once they are installed.' });
    await s.messages.postChat(max, general.id, { markdown: 'Chat messages live in the circle until someone files them.' });

    const demo: DemoWorkspace = {
      workspace: { id: workspace.id, name: workspace.name },
      owner: { id: owner.id, name: owner.name },
      member: { id: member.id, name: member.name },
      circles: { public: general.id, private: leads.id },
      conversationId: conversation.id,
    };
    await tx.query('insert into platform_meta (key, value, updated_at) values ($1, $2::jsonb, $3)', [META_KEY, JSON.stringify(demo), new Date(deps.clock.now())]);
    return { created: true, demo, keys: { owner: ownerKey, member: memberKey } };
  });
}
