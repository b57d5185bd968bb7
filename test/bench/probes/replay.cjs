// Probe of issue 24's journal (node replay.cjs): can the supervisor run again, on another worker, the
// requests a SIGKILLed worker had parsed but not entered, on the client's same keep-alive
// connection? The supervisor hands each connection to a worker and keeps its own copy of the socket
// (keepOpen); the worker journals per connection "parsed (with the request)", "entered", "answered"
// (appended lines, a probe's format). After a death the supervisor reads the journal: a connection
// whose last request was parsed and not entered is handed to another worker with that request to
// run; one entered and not answered gets a 503 written by the supervisor (the culprit's tagged error);
// an idle one is handed on as is. Prints the load's failures and what the supervisor did.
const http = require('http'); const net = require('net'); const fs = require('fs'); const os = require('os'); const path = require('path');
const { fork } = require('child_process');
const role = process.argv[2] || 'harness';

function worker() {
  const ivm = require('isolated-vm');
  const iso = new ivm.Isolate({ memoryLimit: 64 }); const ctx = iso.createContextSync();
  iso.compileScriptSync('globalThis.handle = (b) => { const v = JSON.parse(b); let x = 0; for (let i = 0; i < 2e5; i++) x += i; return JSON.stringify({ ok: true, id: v.id, x }); }').runSync(ctx);
  const fn = ctx.global.getSync('handle', { reference: true });
  const jfd = fs.openSync(process.env.JOURNAL, 'a');
  const log = (rec) => fs.writeSync(jfd, JSON.stringify(rec) + '\n');
  const run = (c, body) => { log({ c, s: 'e' }); return fn.applySync(undefined, [body], { arguments: { copy: true } }); };
  const server = http.createServer((req, res) => {
    const chunks = []; req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      const c = req.socket.connId; const body = Buffer.concat(chunks).toString();
      log({ c, s: 'p', req: { method: req.method, url: req.url, body } });
      // DEFER=1: enter on a later turn, as a request queued behind another one (or behind I/O) does.
      const go = () => { const out = run(c, body); res.end(out); log({ c, s: 'a' }); };
      if (process.env.DEFER === '1') setTimeout(go, 1); else go();
    });
  });
  process.on('message', (m, socket) => {
    if (socket === undefined) return;
    socket.connId = m.id;
    if (m.replay) { // run the request the dead worker had parsed, answer it raw, then serve the connection
      const out = run(m.id, m.replay.body);
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(out)}\r\nConnection: keep-alive\r\n\r\n${out}`);
      log({ c: m.id, s: 'a' });
    }
    server.emit('connection', socket); socket.resume();
  });
  process.send('ready');
}

function supervisor() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-probe-'));
  const conns = new Map(); const stats = { replayed: 0, failed503: 0, movedIdle: 0, deaths: 0 };
  const workers = [];
  const start = (i) => {
    const journal = path.join(dir, `journal-${i}-${Date.now()}`);
    const w = fork(__filename, ['worker'], { env: { ...process.env, JOURNAL: journal }, execArgv: ['--no-node-snapshot'] });
    w.journal = journal; w.index = i; workers[i] = w;
    w.on('exit', () => onDeath(w));
    return new Promise((r) => w.once('message', r));
  };
  const onDeath = (dead) => {
    stats.deaths++;
    const last = new Map();
    for (const line of fs.readFileSync(dead.journal, 'utf8').split('\n')) if (line !== '') { const r = JSON.parse(line); last.set(r.c, r); }
    const other = workers.find((w) => w !== dead && w.exitCode === null);
    for (const [id, conn] of conns) {
      if (conn.worker !== dead) continue;
      const r = last.get(id);
      if (r?.s === 'e') { stats.failed503++; const b = '{"_tag":"PlatformRuntimeCrashedError"}'; conn.socket.write(`HTTP/1.1 503 Service Unavailable\r\nContent-Length: ${b.length}\r\n\r\n${b}`); }
      conn.worker = other;
      if (r?.s === 'p') { stats.replayed++; other.send({ id, replay: r.req }, conn.socket, { keepOpen: true }); } else { if (r?.s !== 'e') stats.movedIdle++; other.send({ id }, conn.socket, { keepOpen: true }); }
    }
    void start(dead.index);
  };
  let next = 0;
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    const id = next++; const w = workers[id % workers.length]; conns.set(id, { socket, worker: w });
    socket.on('close', () => conns.delete(id));
    w.send({ id }, socket, { keepOpen: true });
  });
  Promise.all([start(0), start(1)]).then(() => server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, pids: workers.map((w) => w.pid) })));
  const held = (w) => [...conns.values()].filter((c) => c.worker === w).length;
  process.on('message', (m) => {
    if (m === 'kill') workers.reduce((a, b) => (held(b) > held(a) ? b : a)).kill('SIGKILL'); // the one holding most connections
    if (m === 'stats') process.send({ stats });
  });
}

async function harness() {
  const { Pool } = require('undici');
  const sup = fork(__filename, ['supervisor'], { execArgv: ['--no-node-snapshot'] });
  const { port } = await new Promise((r) => sup.once('message', r));
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 10, pipelining: 1 });
  const body = JSON.stringify({ id: 'dlv_probe' }); const result = { ok: 0, status503: 0, errors: 0 }; let stop = false;
  const loop = async () => { while (!stop) { try { const r = await pool.request({ method: 'POST', path: '/', body }); await r.body.text(); if (r.statusCode === 200) result.ok++; else result.status503++; } catch { result.errors++; } } };
  const loops = Array.from({ length: 10 }, loop);
  for (let k = 0; k < Number(process.env.KILLS ?? 5); k++) { await new Promise((r) => setTimeout(r, 700)); sup.send('kill'); }
  await new Promise((r) => setTimeout(r, 1000)); stop = true; await Promise.all(loops); await pool.close();
  sup.send('stats'); const { stats } = await new Promise((r) => sup.once('message', r));
  console.log(JSON.stringify({ load: result, supervisor: stats }));
  sup.kill('SIGKILL'); process.exit(0);
}

({ harness, supervisor, worker })[role]();
