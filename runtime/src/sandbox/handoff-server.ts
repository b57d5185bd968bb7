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
import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { AppDirectory, ResolvedApp } from '../ingress/directory.ts';
import { createIngress } from '../ingress/routes.ts';
import { onClientError } from '../http/client-errors.ts';
import type { FromWorker, HandoffSetup, IngressTicket, ToWorker } from '../protocol/messages.ts';
import type { LocalRuns } from './local-runs.ts';
import { CONN, type Journal } from '../protocol/journal.ts';

type Send = (msg: FromWorker, body?: Buffer) => void;

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
 * node:http's parser calls the functions at these indexes of itself: when it sees a message's first
 * byte, and when it has parsed a chunk read from the socket (every request in it was emitted).
 */
const { kOnMessageBegin: ON_MESSAGE_BEGIN, kOnExecute: ON_EXECUTE } = (createRequire(import.meta.url)('_http_common') as { HTTPParser: { kOnMessageBegin: number; kOnExecute: number } }).HTTPParser;

/** A request's bytes as the client sent them (a request without a body: nothing after its head). */
export function requestBytes(req: IncomingMessage): Buffer {
  let head = `${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}\r\n`;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) head += `${raw[i]!}: ${raw[i + 1]!}\r\n`;
  return Buffer.from(`${head}\r\n`, 'latin1');
}

const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

interface Open { req: IncomingMessage; n: number; entered: boolean; held: boolean }
interface Conn { slot: number; n: number; open: Open[]; reading: boolean; state: number; queue: Array<() => void> }

/** The connection's journal byte (protocol/journal.ts, CONN): its entered requests, and whether it cannot move. */
function stateOf(c: Conn): number {
  let entered = 0;
  let close = c.reading;
  for (const o of c.open) {
    if (o.entered) entered++;
    // Held requests run again on another worker after the entered ones' answers: never before one.
    else if (!o.held || c.open.some((later) => later.n > o.n && later.entered)) close = true;
  }
  return Math.min(entered, CONN.ENTERED_MAX) | (close ? CONN.CLOSE : 0);
}

/**
 * What the journal says of each handed connection, and the bytes of its requests that wait: before
 * any entry into guest code (`holdWaiting`, from the journal), every request read and not entered
 * is *held*: its bytes go to the supervisor (the `held` frame, dropped at `unheld`), so that if the
 * guest takes the worker down, the supervisor runs them again on another worker. A request is
 * served only once the chunk it came in is parsed (`later`), so the requests pipelined behind it
 * in that chunk are read, and held, before it enters. Nothing is sent for a request that enters
 * while no other waits (the common case); the journal byte is written with the next entry.
 */
export function createConnJournal(journal: Pick<Journal, 'conn' | 'at'>, send: Send) {
  const conns = new WeakMap<Socket, Conn>();
  const opens = new WeakMap<IncomingMessage, Open>();
  /** Read, not entered, not held. */
  const waiting = new Set<Open>();
  const run = (c: Conn): void => {
    for (const serve of c.queue.splice(0)) serve();
  };
  const update = (c: Conn): void => {
    const state = stateOf(c);
    if (state === c.state) return;
    c.state = state;
    journal.conn(c.slot, state);
  };
  const unhold = (c: Conn, o: Open): void => {
    if (!o.held) return;
    o.held = false;
    send({ t: 'unheld', slot: c.slot, n: o.n });
  };
  const enter = (req: IncomingMessage, guest: boolean): void => {
    const o = opens.get(req);
    const c = conns.get(req.socket as Socket);
    if (o === undefined || c === undefined) return;
    if (guest) journal.at(c.slot);
    if (o.entered) return;
    unhold(c, o);
    waiting.delete(o);
    o.entered = true;
    update(c);
  };
  const hold = (o: Open): void => {
    const c = conns.get(o.req.socket as Socket);
    if (c === undefined || hasBody(o.req)) return;
    o.held = true;
    send({ t: 'held', slot: c.slot, n: o.n }, requestBytes(o.req));
    update(c);
  };
  return {
    take(socket: Socket, slot: number): void {
      // A slot is reused only after its last connection's end: start it idle (it may say otherwise).
      const c: Conn = { slot, n: 0, open: [], reading: false, state: CONN.CLOSE, queue: [] };
      conns.set(socket, c);
      update(c);
    },
    /** Once node:http took the connection: a message begun on it is a request in mid-read. */
    watch(socket: Socket): void {
      const c = conns.get(socket);
      const parser = (socket as unknown as { parser?: Record<number, unknown> | null }).parser;
      if (c === undefined || parser === null || parser === undefined) return;
      parser[ON_MESSAGE_BEGIN] = (): void => {
        c.reading = true;
        update(c);
      };
      const parsed = parser[ON_EXECUTE];
      if (typeof parsed !== 'function') return;
      parser[ON_EXECUTE] = function (this: unknown, ...args: unknown[]): unknown {
        const r: unknown = parsed.apply(this, args);
        run(c);
        return r;
      };
    },
    /**
     * Serves a request once its chunk is parsed (the parser's end of chunk; else the next turn: the
     * first chunk, which the supervisor read, is parsed from JavaScript without that call).
     */
    later(req: IncomingMessage, serve: () => void): void {
      const c = conns.get(req.socket as Socket);
      if (c === undefined) return serve();
      if (c.queue.push(serve) === 1) setImmediate(run, c);
    },
    /** Before an entry into guest code: every request read and not entered is held (its bytes at the supervisor). */
    holdWaiting(): void {
      if (waiting.size === 0) return;
      for (const o of waiting) hold(o);
      waiting.clear();
    },
    /** A request was read; returns what to call once it was answered. */
    read(req: IncomingMessage): () => void {
      const c = conns.get(req.socket as Socket);
      if (c === undefined) return () => {};
      c.reading = false;
      const o: Open = { req, n: ++c.n, entered: false, held: false };
      c.open.push(o);
      opens.set(req, o);
      waiting.add(o);
      update(c);
      return () => {
        unhold(c, o);
        waiting.delete(o);
        c.open.splice(c.open.indexOf(o), 1);
        update(c);
      };
    },
    /** The request is about to enter guest code (each entry: the journal names its connection). */
    enter: (req: IncomingMessage): void => enter(req, true),
    /** The request was passed to the supervisor: it may run there, so it is never run again. */
    passed: (req: IncomingMessage): void => enter(req, false),
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
    journal.later(req, () => serve(req, res));
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
      journal.watch(socket);
    },
  };
}
