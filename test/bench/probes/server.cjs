// One server variant per process. node --no-node-snapshot server.cjs <mode> <port>
const http = require('http');
const mode = process.argv[2]; const port = Number(process.argv[3]);
const GUEST = `globalThis.handle = function (method, url, body) { const v = JSON.parse(body); return JSON.stringify({ ok: true, id: v.id }); };
globalThis.spin = function (n) { let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) % 1000003; return x; };`;
function makeGuest() {
  const ivm = require('isolated-vm');
  const iso = new ivm.Isolate({ memoryLimit: 64 });
  const ctx = iso.createContextSync();
  iso.compileScriptSync(GUEST).runSync(ctx);
  const fn = ctx.global.getSync('handle', { reference: true });
  return { ivm, iso, ctx, fn };
}
function readBody(req, cb) { const chunks = []; req.on('data', (c) => chunks.push(c)); req.on('end', () => cb(Buffer.concat(chunks).toString())); }
function makeWatchdog(budgetMs) {
  // Shared slot: st[0] = seq (odd while a guest slice runs), f64[1] = slice start (epoch ms), f64[2] = remaining budget ms, f64[3] = main-thread CPU us at slice start
  const { Worker } = require('worker_threads');
  const sab = new SharedArrayBuffer(64); const st = new Int32Array(sab, 0, 4); const f64 = new Float64Array(sab, 16, 4);
  const w = new Worker(`
    const { workerData: { sab, tid } } = require('worker_threads'); const fs = require('fs');
    const st = new Int32Array(sab, 0, 4); const f64 = new Float64Array(sab, 16, 4);
    const fd = fs.openSync('/proc/self/task/' + tid + '/schedstat', 'r'); const buf = Buffer.alloc(64);
    const cpuUs = () => { const n = fs.readSync(fd, buf, 0, 64, 0); return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e3; };
    let seq = -1, base = 0;
    for (;;) {
      Atomics.wait(st, 3, 0, 1); // sleep 1 ms
      const s = Atomics.load(st, 0);
      if ((s & 1) === 0) continue;
      const now = performance.timeOrigin + performance.now();
      if (s !== seq) seq = s;
      if (now - f64[0] < f64[1]) continue; // CPU <= wall: nothing to check before the wall passes the budget
      const used = (cpuUs() - f64[2]) / 1000; // schedstat is ns, f64[2] is the same clock read by main (us)
      if (used >= f64[1] && Atomics.load(st, 0) === s) {
        fs.writeSync(2, 'WATCHDOG over budget: cpu ' + used.toFixed(2) + ' ms, wall ' + (now - f64[0]).toFixed(2) + ' ms\\n');
        process.kill(process.pid, process.env.WD_STOP === '1' ? 'SIGSTOP' : 'SIGKILL');
      }
    }`, { eval: true, workerData: { sab, tid: process.pid } });
  w.unref();
  const fd = require('fs').openSync('/proc/self/task/' + process.pid + '/schedstat', 'r'); const buf = Buffer.alloc(64);
  return {
    enter() { const t = process.threadCpuUsage(); f64[0] = performance.timeOrigin + performance.now(); f64[1] = budgetMs; f64[2] = t.user + t.system; Atomics.add(st, 0, 1); return t; },
    leave(t0) { Atomics.add(st, 0, 1); const t = process.threadCpuUsage(); return (t.user + t.system) - (t0.user + t0.system); },
    enterExact() { // slow path for the overshoot test: same clock as the watchdog (schedstat of this thread)
      const n = require('fs').readSync(fd, buf, 0, 64, 0); f64[0] = performance.timeOrigin + performance.now(); f64[1] = budgetMs; f64[2] = Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e3; Atomics.add(st, 0, 1);
    },
  };
}
if (mode === 'bare') {
  http.createServer((req, res) => readBody(req, () => res.end('ok'))).listen({ port, host: '127.0.0.1', reusePort: true });
} else if (mode === 'sync' || mode === 'synctimeout' || mode === 'syncwd' || mode === 'async' || mode === 'reuseport') {
  const g = makeGuest(); const wd = mode === 'syncwd' ? makeWatchdog(50) : null;
  const opts = { arguments: { copy: true }, result: { copy: true } };
  const optsT = { ...opts, timeout: 50 };
  http.createServer((req, res) => readBody(req, (body) => {
    if (mode === 'async') { g.fn.apply(undefined, [req.method, req.url, body], opts).then((out) => res.end(out)); return; }
    if (wd !== null) { const t0 = wd.enter(); const out = g.fn.applySync(undefined, [req.method, req.url, body], opts); wd.leave(t0); res.end(out); return; }
    res.end(g.fn.applySync(undefined, [req.method, req.url, body], mode === 'synctimeout' ? optsT : opts));
  })).listen({ port, host: '127.0.0.1', reusePort: true });
} else if (mode === 'ipc-sup') {
  const { fork } = require('child_process');
  const child = fork(__filename, ['ipc-child', '0'], { execArgv: ['--no-node-snapshot'], serialization: 'advanced' });
  const pending = new Map(); let next = 0;
  child.on('message', (m) => { const res = pending.get(m.id); pending.delete(m.id); res.end(m.out); });
  http.createServer((req, res) => readBody(req, (body) => { const id = next++; pending.set(id, res); child.send({ id, method: req.method, url: req.url, body }); })).listen({ port, host: '127.0.0.1' });
} else if (mode === 'ipc-child') {
  const g = makeGuest(); const opts = { arguments: { copy: true }, result: { copy: true } };
  process.on('message', (m) => process.send({ id: m.id, out: g.fn.applySync(undefined, [m.method, m.url, m.body], opts) }));
} else if (mode === 'spin') {
  // overshoot test: one request = spin N ms of wall in the guest (argv[4]); watchdog budget 50 ms; SIGSTOP on overrun so the harness can read the exact CPU
  const g = makeGuest(); const wd = makeWatchdog(process.env.IVM_TIMEOUT ? 1e9 : 50); const spin = g.ctx.global.getSync('spin', { reference: true });
  http.createServer((req, res) => readBody(req, () => {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('n'));
    const w0 = performance.now(); wd.enterExact(); const t0 = process.threadCpuUsage(); let killed = false;
    try { spin.applySync(undefined, [n], process.env.IVM_TIMEOUT ? { timeout: Number(process.env.IVM_TIMEOUT) } : {}); } catch (e) { killed = e.message; }
    const t1 = process.threadCpuUsage(); wd.leave(t0);
    res.end(JSON.stringify({ cpuMs: ((t1.user + t1.system) - (t0.user + t0.system)) / 1000, wallMs: performance.now() - w0, killed }));
  })).listen({ port, host: '127.0.0.1' });
}

if (mode === 'handoff') {
  // Supervisor: accepts, hands each connection once to a worker (round robin), parses nothing.
  const net = require('net'); const { fork } = require('child_process');
  const n = Number(process.env.HANDOFF_WORKERS || 2);
  const kids = Array.from({ length: n }, () => fork(__filename, ['handoff-child', '0'], { execArgv: ['--no-node-snapshot'], serialization: 'advanced' }));
  let next = 0;
  net.createServer({ pauseOnConnect: true }, (socket) => { kids[next++ % n].send('conn', socket); }).listen({ port, host: '127.0.0.1' });
  process.on('SIGTERM', () => { for (const k of kids) k.kill('SIGTERM'); process.exit(0); });
} else if (mode === 'handoff-child') {
  // Worker: serves the connections it was handed, guest with applySync on its main thread, a 16-byte
  // journal write (pwrite to a file the supervisor could read after a death) before each entry.
  const fs = require('fs'); const jfd = fs.openSync(`${require('os').tmpdir()}/runtime-probe-journal-${process.pid}`, 'w'); const jb = Buffer.alloc(16); let seq = 0;
  const g = makeGuest(); const opts = { arguments: { copy: true }, result: { copy: true } };
  const server = http.createServer((req, res) => readBody(req, (body) => {
    seq++; jb.writeDoubleLE(seq, 0); jb.writeDoubleLE(seq, 8); if (process.env.NO_JOURNAL !== '1') fs.writeSync(jfd, jb, 0, 16, 0);
    res.end(g.fn.applySync(undefined, [req.method, req.url, body], opts));
  }));
  process.on('message', (m, socket) => { if (m === 'conn' && socket) { server.emit('connection', socket); socket.resume(); } });
  process.on('SIGTERM', () => process.exit(0));
}
if (mode !== 'ipc-child' && mode !== 'handoff' && mode !== 'handoff-child') process.on('SIGTERM', () => process.exit(0));
