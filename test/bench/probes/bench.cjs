// Topology probes of issue 24 (from the runtime study of 2026-11-26, plus the `handoff` variant): from test/bench/probes,
// NODE_BIN=<node 24> node bench.cjs <rounds> bare,sync,ipc-sup,handoff,reuseport2 — server CPU per request is the stable figure.
// Runs every variant back to back, `reps` rounds; prints req/s, ratio to bare of the same round, and server CPU us/request
const { spawn, fork } = require('child_process'); const fs = require('fs');
const N = process.env.NODE_BIN || process.execPath; const reps = Number(process.argv[2] || 3); const variants = (process.argv[3] || 'bare,sync,syncwd,synctimeout,async,ipc-sup,reuseport2').split(',');
const cpuOf = (pids) => pids.reduce((a, pid) => { try { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return a + Number(f[11]) + Number(f[12]); } catch { return a; } }, 0) * 10000; // us
const kids = (pid) => { try { return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number); } catch { return []; } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function one(v, port) {
  const n = v === 'reuseport2' ? 2 : 1; const mode = v === 'reuseport2' ? 'sync' : v;
  const servers = Array.from({ length: n }, () => spawn(N, ['--no-node-snapshot', 'server.cjs', mode, String(port)], { stdio: ['ignore', 'inherit', 'inherit'] }));
  await sleep(700);
  const pids = servers.flatMap((s) => [s.pid, ...kids(s.pid)]);
  const lg = fork('load.cjs', [String(port), '4000'], { execPath: N });
  let c0 = 0, c1 = 0;
  const rps = await new Promise((resolve) => lg.on('message', (m) => { if (m === 'start') c0 = cpuOf(pids); else if (m === 'end') c1 = cpuOf(pids); else resolve(m); }));
  for (const s of servers) { s.kill('SIGTERM'); }
  await Promise.all(servers.map((s) => new Promise((r) => (s.exitCode !== null ? r() : s.once('exit', r)))));
  await sleep(300);
  return { rps: rps.rps, fail: rps.fail, cpuUsPerReq: (c1 - c0) / (rps.rps * 4) };
}
(async () => {
  const rows = {};
  for (let r = 0; r < reps; r++) {
    let bare = null;
    for (const [i, v] of variants.entries()) {
      const res = await one(v, 4410 + i);
      if (v === 'bare') bare = res.rps;
      (rows[v] ??= []).push(res);
      console.log(`round ${r + 1} ${v.padEnd(12)} ${res.rps.toFixed(0).padStart(6)} req/s  ${bare ? (res.rps / bare).toFixed(2) : '-'}x bare  server CPU ${res.cpuUsPerReq.toFixed(0)} us/req  fail ${res.fail}`);
    }
  }
  console.log('\nmedian req/s and ratio to median bare:');
  const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
  const b = med(rows.bare.map((x) => x.rps));
  for (const v of variants) console.log(`${v.padEnd(12)} ${med(rows[v].map((x) => x.rps)).toFixed(0).padStart(6)}  ${(med(rows[v].map((x) => x.rps)) / b).toFixed(2)}x  cpu ${med(rows[v].map((x) => x.cpuUsPerReq)).toFixed(0)} us/req`);
})();
