// Closed-loop load for handoff-cpu.ts: node handoff-load.cjs <port> <requests> <connections>; GET /apps/hot/ on keep-alive connections
const { request, Agent } = require('node:http');
const [port, total, conns] = process.argv.slice(2).map(Number);
const agents = Array.from({ length: conns }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
const one = (agent) => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/apps/hot/', agent }, (res) => { res.resume(); res.on('end', resolve); });
  req.on('error', reject);
  req.end();
});
let left = total;
Promise.all(agents.map(async (a) => { while (left-- > 0) await one(a); })).then(() => { for (const a of agents) a.destroy(); }, (err) => { console.error(err); process.exit(1); });
