// The "Tracker" fixture app for the references suites, written with the authoring API and served
// over HTTP with `serve` from `@platform/sdk/node`. Its `issue` links
// (`https://tracker.example.com/:org/issues/:id`) resolve by id, whatever the org, so two links
// can name one object: a numeric id is granted (its title counts the resolves of that id), `block`
// is granted with a block, `secret`/`login`/`gone` are denied, `later` is unavailable, `boom`
// throws, `picture-<base64url URL>` is granted with that image as its icon and in its block. `issue` is searchable: query `boom` throws, `many` answers `limit` + 1 items (the
// authoring API drops the extra one), others answer min(limit, 3) items echoing a short query in their titles.
// `mode` makes the server answer whole deliveries the way a broken app would. Every delivery is
// logged for tests to read. Issue `buttons` is granted with a block of buttons (`actionCard`);
// clicks on it (`block.action` for a reference card) are answered raw by `cardAction` by action
// name, except `assign`, which the authoring API runs (`defineReference({ actions })`).
import { defineApp, defineReference, renderTree, ui, type App } from '@platform/sdk';
import { serve, type Served } from '@platform/sdk/node';

export type TrackerMode = 'normal' | 'garbage' | 'hang' | 'wrong-count' | 'bad-tree' | 'status-500' | 'too-many' | 'http-url';

export interface TrackerServer {
  url: string;
  endpoint: string;
  app: App;
  /** `reference.resolve` deliveries received, oldest first: their `data` and `actor`. */
  resolves: Array<{ data: any; actor: any }>;
  /** `block.action` deliveries for reference cards, oldest first: their `data` and `actor`. */
  clicks: Array<{ data: any; actor: any }>;
  /** `reference.search` deliveries received, oldest first: their `data` and `actor`. */
  searches: Array<{ data: any; actor: any }>;
  mode: TrackerMode;
  /**
   * Holds the next `reference.resolve` delivery (or card click) before the app answers it:
   * `received` settles when it arrives, and the app answers once `release()` is called (races are
   * played out in order, no timers).
   */
  hold(what?: 'resolve' | 'click'): { received: Promise<void>; release(): void };
  configure(env: { signingSecret: string; apiUrl: string }): void;
  close(): Promise<void>;
}

const HANG_MS = 6_000;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function trackerApp(endpoint: string, now: () => number): App {
  const resolvesOf = new Map<string, number>();
  const issue = defineReference({
    kind: 'issue', title: 'Issue', hasBlock: true,
    patterns: { issue: 'https://tracker.example.com/:org/issues/:id' },
    resolve: ({ params }) => {
      const id = params.id!;
      if (id === 'secret') return { access: 'forbidden' as const };
      if (id === 'login') return { access: 'unauthorized' as const };
      if (id === 'gone') return { access: 'notFound' as const };
      if (id === 'later') return { access: 'unavailable' as const };
      if (id === 'boom') throw new Error('tracker is down');
      const count = (resolvesOf.get(id) ?? 0) + 1;
      resolvesOf.set(id, count);
      if (id === 'buttons') {
        return { access: 'granted' as const, externalId: id, title: 'With buttons', summary: 'Has buttons', visibility: 'public' as const, block: actionCard('Open') };
      }
      // `vip-<memberId>`: a card whose 'VIP only' button is for that member alone (its audience).
      if (id.startsWith('vip-')) {
        const vip = id.slice('vip-'.length);
        return {
          access: 'granted' as const, externalId: id, title: 'For a VIP', summary: 'Has a VIP button', visibility: 'public' as const,
          block: ui.block({ summary: 'VIP card' }, [ui.header({ title: 'VIP card' }), ui.actions([
            ui.button({ label: 'Everyone', action: 'ping' }),
            ui.button({ label: 'VIP only', action: 'ping', args: { vip: true }, audience: [vip] }),
          ])]),
        };
      }
      // `picture-<base64url of an image URL>`: a card whose icon and block image are that URL.
      if (id.startsWith('picture-')) {
        const src = Buffer.from(id.slice('picture-'.length), 'base64url').toString('utf8');
        return {
          access: 'granted' as const, externalId: id, title: 'With a picture', summary: 'Has a picture', visibility: 'public' as const, icon: src,
          block: ui.block({ summary: 'Picture card' }, [ui.header({ title: 'Picture card' }), ui.image({ src, alt: 'The picture' }), ui.actions([])]),
        };
      }
      if (id === 'block') {
        return {
          access: 'granted' as const, externalId: id, title: 'With block', summary: 'Has a block', visibility: 'public' as const,
          block: ui.block({ summary: 'Issue card' }, [ui.header({ title: 'Issue card' }), ui.actions([])]),
        };
      }
      return {
        access: 'granted' as const, externalId: id, title: `Issue ${id} #${count}`, summary: `Open issue ${id}`, subtitle: 'acme/web',
        status: { state: 'open', label: 'Open' }, updatedAt: '2026-01-01T00:00:00.000Z',
      };
    },
    actions: {
      assign: ({ actor, reference, args }) => ({
        tree: actionCard(`assigned to ${actor?.name ?? 'nobody'}`), notice: { tone: 'info', text: `Assigned ${reference.externalId} (${String(args.to)})` },
      }),
    },
    search: ({ query, limit }) => {
      if (query === 'boom') throw new Error('tracker search is down');
      const count = query === 'many' ? limit + 1 : Math.min(limit, 3);
      return Array.from({ length: count }, (_, i) => ({
        url: `https://tracker.example.com/acme/issues/${i + 1}`, title: query.length <= 40 ? `Issue ${i + 1}: ${query}` : `Issue ${i + 1}`,
        ...(i === 0 ? { subtitle: 'acme/web', status: { state: 'open', label: 'Open' } } : {}),
      }));
    },
  });
  const project = defineReference({
    kind: 'project', title: 'Project',
    patterns: [{ id: 'project', pattern: 'https://tracker.example.com/projects/:id' }],
    resolve: ({ params }) => ({ access: 'granted', externalId: `p-${params.id}`, title: `Project ${params.id}`, summary: 'A project', visibility: 'public' }),
  });
  return defineApp({
    name: 'Tracker', slug: 'tracker', hosting: 'self', endpoint,
    scopes: ['references:write', 'notifications:write'],
    references: [issue, project],
  }, { now, logger: quiet });
}

/** The block of issue `buttons`: one button per answer `cardAction` knows, and a destructive one. */
export function actionCard(state: string) {
  return ui.block({ summary: `Issue is ${state}` }, [
    ui.header({ title: `Issue is ${state}` }),
    ui.actions([
      ui.button({ label: 'Close', action: 'close', args: { reason: 'done' } }),
      ui.button({ label: 'Later', action: 'later' }),
      ui.button({ label: 'Broken', action: 'broken' }),
      ui.button({ label: 'Ping', action: 'ping' }),
      ui.button({ label: 'Delete', action: 'delete', intent: 'destructive', confirm: { title: 'Delete the issue?' } }),
      ui.menu({ label: 'More' }, [ui.menuItem({ label: 'Assign', action: 'assign', args: { to: 'me' } })]),
    ]),
  ]);
}

/** The answer to a click in a reference card's block, by action name. */
function cardAction(data: any): Response | null {
  switch (data?.action?.name) {
    case 'close': return Response.json({ ...renderTree(actionCard('Closed')), notice: { tone: 'success', text: 'Closed' }, openUrl: 'https://tracker.example.com/closed' });
    case 'later': return new Response(null, { status: 202 });
    case 'broken': return Response.json({ tree: { type: 'uiBlock', attrs: { catalog: 1, summary: 'Broken' }, content: [] }, actions: {} });
    case 'ping': return Response.json({ notify: [{ memberId: data.actorMemberId, text: 'Pinged from a card' }], revalidate: true, state: { ignored: true }, final: {} });
    case 'delete': return Response.json({ notice: { tone: 'warning', text: 'Deleted' } });
    default: return null;
  }
}

function rawAnswer(mode: TrackerMode, data: any, abort: AbortSignal): Response | Promise<Response> | null {
  const items = (data?.items ?? []) as Array<{ url: string }>;
  switch (mode) {
    case 'normal': return null;
    case 'garbage': return new Response('{"items": oops', { status: 200, headers: { 'content-type': 'application/json' } });
    case 'status-500': return Response.json({ error: 'internal' }, { status: 500 });
    case 'wrong-count': return Response.json({ items: items.slice(1).map((i) => ({ url: i.url, access: 'notFound' })) });
    case 'bad-tree': return Response.json({
      items: items.map((i) => ({
        url: i.url, access: 'granted', visibility: 'public', externalId: 'bad', title: 'Bad', summary: 'Bad',
        block: { tree: { type: 'uiBlock', attrs: { catalog: 1, summary: 'Broken' }, content: [] }, actions: {} },
      })),
    });
    case 'too-many': {
      // Search only: more items than asked for (or than any search may answer).
      const n = Math.min(Number(data?.limit ?? 1) + 1, 51);
      return Response.json({ items: Array.from({ length: n }, (_, i) => ({ url: `https://tracker.example.com/acme/issues/${i}`, title: `Issue ${i}` })) });
    }
    case 'http-url': return Response.json({ items: [{ url: 'http://tracker.example.com/acme/issues/1', title: 'Plain http' }] });
    case 'hang':
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(Response.json({ items: [] })), HANG_MS);
        abort.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(Response.json({}));
        });
      });
  }
}

export async function startTrackerServer(options: { now: () => number }): Promise<TrackerServer> {
  const env: Record<string, string> = {};
  const closing = new AbortController();
  const defined: { app?: App } = {};
  const server = { resolves: [] as TrackerServer['resolves'], clicks: [] as TrackerServer['clicks'], searches: [] as TrackerServer['searches'], mode: 'normal' as TrackerMode };
  const held = new Map<'resolve' | 'click', { arrived: () => void; gate: Promise<void> }>();
  /** Waits while a test holds deliveries of this kind (once per hold). */
  const pass = async (what: 'resolve' | 'click') => {
    const hold = held.get(what);
    if (hold === undefined) return;
    held.delete(what);
    hold.arrived();
    await hold.gate;
  };
  const served: Served = await serve({
    async fetch(request, _env, ctx) {
      if (request.method === 'POST' && request.headers.has('webhook-signature')) {
        const envelope = JSON.parse(await request.clone().text()) as { type: string; actor?: { memberId: string }; data: any };
        if (envelope.type === 'block.action' && envelope.data?.block?.reference !== undefined) {
          server.clicks.push({ data: envelope.data, actor: envelope.actor });
          await pass('click');
          const raw = cardAction({ ...envelope.data, actorMemberId: envelope.actor?.memberId });
          if (raw !== null) return raw;
        }
        if (envelope.type === 'reference.resolve') {
          server.resolves.push({ data: envelope.data, actor: envelope.actor });
          await pass('resolve');
          const raw = rawAnswer(server.mode, envelope.data, closing.signal);
          if (raw !== null) return raw;
        }
        if (envelope.type === 'reference.search') {
          server.searches.push({ data: envelope.data, actor: envelope.actor });
          const raw = rawAnswer(server.mode, envelope.data, closing.signal);
          if (raw !== null) return raw;
        }
      }
      return defined.app!.fetch(request, env, ctx);
    },
  }, { port: 0, env, logger: quiet });
  const app = trackerApp(`${served.url}/platform`, options.now);
  defined.app = app;
  return Object.assign(server, {
    url: served.url,
    endpoint: `${served.url}/platform`,
    app,
    hold(what: 'resolve' | 'click' = 'resolve') {
      let arrived!: () => void;
      let release!: () => void;
      const received = new Promise<void>((resolve) => { arrived = resolve; });
      const gate = new Promise<void>((resolve) => { release = resolve; });
      held.set(what, { arrived, gate });
      // Closing the server lets a held delivery go.
      closing.signal.addEventListener('abort', () => release());
      return { received, release };
    },
    configure({ signingSecret, apiUrl }: { signingSecret: string; apiUrl: string }) {
      env.PLATFORM_SIGNING_SECRET = signingSecret;
      env.PLATFORM_API_URL = apiUrl;
    },
    async close() {
      closing.abort();
      await served.close();
    },
  });
}
