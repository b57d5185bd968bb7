/**
 * @module sandbox/handoff-server
 * Hosted ingress on connections the supervisor handed to this worker (RUNTIME_HANDOFF=ingress):
 * node:http parses their requests here and ingress/routes.ts serves them over this worker's run
 * service (local-runs.ts) and a directory that asks the supervisor for what it does not hold
 * (an app and its ticket, kept as long as the supervisor's directory keeps an answer).
 *
 * Only hosted ingress is served here: the supervisor hands a connection whose first request is
 * ingress, and a later request on it for anything else (the internal API, health) is answered
 * `421 Misdirected Request` with the connection closed, so the client sends it again on a new
 * connection, which the supervisor keeps. The internal API's connections never reach a worker.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { AppDirectory, ResolvedApp } from '../ingress/directory.ts';
import { createIngress } from '../ingress/routes.ts';
import { onClientError } from '../http/client-errors.ts';
import type { FromWorker, HandoffSetup, IngressTicket, ToWorker } from '../protocol/messages.ts';
import type { LocalRuns } from './local-runs.ts';
import { CONN, type ConnState, type Journal } from '../protocol/journal.ts';

type Send = (msg: FromWorker) => void;

/** The worker's directory: answers from the supervisor, kept `ttlMs`; one question per slug at a time. */
export function createWorkerDirectory(send: Send, ttlMs: number, now: () => number, tickets: WeakMap<object, IngressTicket>) {
  const known = new Map<string, { app: ResolvedApp | null; at: number }>();
  const asking = new Map<string, Array<(app: ResolvedApp | null) => void>>();
  const questions = new Map<number, string>();
  let n = 0;
  const directory: AppDirectory & { answer(msg: Extract<ToWorker, { t: 'app' }>): void; revoke(appId: string): void } = {
    cached(slug) {
      const k = known.get(slug);
      if (k === undefined) return undefined;
      if (now() - k.at < ttlMs) return k.app;
      known.delete(slug);
      return undefined;
    },
    resolve(slug) {
      return new Promise((resolve) => {
        const waiting = asking.get(slug);
        if (waiting !== undefined) return void waiting.push(resolve);
        asking.set(slug, [resolve]);
        questions.set(++n, slug);
        send({ t: 'app', id: n, slug });
      });
    },
    answer(msg) {
      const slug = questions.get(msg.id);
      if (slug === undefined) return;
      questions.delete(msg.id);
      const app = msg.ticket?.app ?? null;
      if (msg.ticket !== null) tickets.set(msg.ticket.app, msg.ticket);
      if (known.size >= 10_000) known.clear();
      known.set(slug, { app, at: now() });
      for (const resolve of asking.get(slug) ?? []) resolve(app);
      asking.delete(slug);
    },
    revoke(appId) {
      for (const [slug, k] of known) if (k.app?.appId === appId) known.delete(slug);
    },
  };
  return directory;
}

/** Platform faults go to the node's log through the supervisor (this process logs nothing itself). */
function channelLogger(send: Send): Logger {
  const log = (level: 'warn' | 'error') => (obj: { err?: unknown }, message: string): void => {
    send({ t: 'log', level, message, error: obj.err instanceof Error ? (obj.err.stack ?? obj.err.message) : String(obj.err) });
  };
  const noop = (): void => {};
  return { error: log('error'), warn: log('warn'), info: noop, debug: noop, trace: noop, fatal: log('error') } as unknown as Logger;
}

function misdirected(res: ServerResponse): void {
  const body = JSON.stringify({ _tag: 'PlatformApiNotFoundError', message: 'Send this request on a new connection: this one serves hosted apps only', path: [] });
  res.writeHead(421, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

/**
 * What the journal says of each handed connection (protocol/journal.ts): ENTERED while one of its
 * requests entered guest code and is not answered, READ while one is read and not answered, else
 * IDLE; written only when that changes (on the hot path: at entry and at the answer's end).
 */
export function createConnJournal(journal: Pick<Journal, 'conn'>) {
  interface Conn { slot: number; open: number; entered: number; state: ConnState }
  const conns = new WeakMap<Socket, Conn>();
  const entered = new WeakSet<IncomingMessage>();
  const update = (c: Conn): void => {
    const state = c.entered > 0 ? CONN.ENTERED : c.open > 0 ? CONN.READ : CONN.IDLE;
    if (state === c.state) return;
    c.state = state;
    journal.conn(c.slot, state);
  };
  return {
    take(socket: Socket, slot: number): void {
      // A slot is reused only after its last connection's end: start it IDLE (it may say otherwise).
      const c: Conn = { slot, open: 0, entered: 0, state: CONN.READ };
      conns.set(socket, c);
      update(c);
    },
    /** A request was read; returns what to call once it was answered. */
    read(req: IncomingMessage): () => void {
      const c = conns.get(req.socket as Socket);
      if (c === undefined) return () => {};
      c.open++;
      return () => {
        c.open--;
        if (entered.has(req)) c.entered--;
        update(c);
      };
    },
    /** After the request's handler ran as far as it could at once: READ unless it entered. */
    settled(req: IncomingMessage): void {
      const c = conns.get(req.socket as Socket);
      if (c !== undefined) update(c);
    },
    /** The request is about to enter guest code (first entry only counts). */
    enter(req: IncomingMessage): void {
      const c = conns.get(req.socket as Socket);
      if (c === undefined || entered.has(req)) return;
      entered.add(req);
      c.entered++;
      update(c);
    },
  };
}

export type ConnJournal = ReturnType<typeof createConnJournal>;

export function createHandoffServer(deps: { setup: HandoffSetup; runs: LocalRuns; directory: AppDirectory; send: Send; journal: ConnJournal }): { server: Server; take(socket: Socket, head: string, slot: number): void } {
  const { setup, journal } = deps;
  const logger = channelLogger(deps.send);
  const ingress = createIngress({
    directory: deps.directory, runs: deps.runs, hostedAppDomain: setup.hostedAppDomain, maxBodyBytes: setup.maxBodyBytes, logger,
    appOrigin: (slug) => (setup.hostedAppDomain === null ? setup.publicUrl : `https://${slug}.${setup.hostedAppDomain}`),
  });
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const slug = ingress.slugOfHost(req.headers.host);
    if (slug !== null) return void ingress.serveHost(req, res, slug);
    if (ingress.isPath(req.url ?? '/')) return void ingress.servePath(req, res);
    misdirected(res);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.once('close', journal.read(req));
    serve(req, res);
    journal.settled(req);
  });
  onClientError(server, logger);
  return {
    server,
    take(socket, head, slot) {
      journal.take(socket, slot);
      socket.once('close', () => deps.send({ t: 'conn-end', slot }));
      // The bytes the supervisor read to choose this worker come first, then the socket's own.
      if (head.length > 0) socket.unshift(Buffer.from(head, 'latin1'));
      server.emit('connection', socket);
    },
  };
}
