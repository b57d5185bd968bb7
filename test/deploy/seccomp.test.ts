/**
 * The seccomp profile of the runtime pool (deploy/kubernetes/seccomp/platform-runtime.json) holds
 * what it says: a real runtime node runs under it (loaded with libseccomp by enforce.py, as the
 * container runtime loads a Localhost profile) and serves a hosted app end to end (the control
 * plane reads the uploaded bundle's manifest through it; a route runs in a sandbox worker under
 * the CPU watchdog), while what the profile leaves out is refused (chown: EPERM), and the kernel
 * surfaces no sandbox needs stay closed (namespaces, ptrace, bpf, io_uring, module loading…).
 *
 * Needs Debian's python3-seccomp (.ci/run installs it); CI never skips this suite.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_CI } from '../helpers/services.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { createApp } from '../control-plane/apps/helpers.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIR = `${REPO}deploy/kubernetes/seccomp/`;
const PROFILE = `${DIR}platform-runtime.json`;
const PYTHON = '/usr/bin/python3';
const loader = spawnSync(PYTHON, ['-c', 'import seccomp'], { encoding: 'utf8' }).status === 0;
if (!loader && IN_CI) throw new Error('python3-seccomp is missing: .ci/run installs it, and CI never skips the seccomp suite');

const under = (command: string, args: string[]) => [PYTHON, [`${DIR}enforce.py`, PROFILE, '--', command, ...args]] as const;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the runtime pool\'s seccomp profile', () => {
  it('allows no system call that opens a kernel surface the sandbox does not need', async () => {
    const profile = JSON.parse(await readFile(PROFILE, 'utf8')) as { defaultAction: string; syscalls: Array<{ names: string[]; action: string; args?: unknown[] }> };
    expect(profile.defaultAction).toBe('SCMP_ACT_ERRNO');
    const allowed = new Set(profile.syscalls.filter((r) => r.action === 'SCMP_ACT_ALLOW' && r.args === undefined).flatMap((r) => r.names));
    const closed = ['ptrace', 'process_vm_readv', 'process_vm_writev', 'bpf', 'perf_event_open', 'userfaultfd', 'unshare', 'setns', 'clone', 'clone3',
      'mount', 'umount2', 'pivot_root', 'chroot', 'init_module', 'finit_module', 'delete_module', 'kexec_load', 'reboot', 'keyctl', 'add_key',
      'request_key', 'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'open_by_handle_at', 'name_to_handle_at', 'setuid', 'setgid',
      'chown', 'fchown', 'fchownat', 'mknod', 'mknodat', 'iopl', 'ioperm', 'swapon', 'acct', 'quotactl', 'syslog', 'settimeofday', 'clock_settime'];
    expect(closed.filter((name) => allowed.has(name))).toEqual([]);
    // clone only without namespace flags; clone3 (flags out of seccomp's sight) answers ENOSYS.
    expect(profile.syscalls.find((r) => r.names.includes('clone'))).toMatchObject({ action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 0x7e020000, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }] });
    expect(profile.syscalls.find((r) => r.names.includes('clone3'))).toMatchObject({ action: 'SCMP_ACT_ERRNO', errnoRet: 38 });
  });

  describe.skipIf(!loader)('enforced with libseccomp', () => {
    let stack: Stack;
    let node: ChildProcess;
    let runtimeUrl: string;
    let dataDir: string;
    const output: string[] = [];

    beforeAll(async () => {
      const secret = randomBytes(24).toString('base64url');
      const [cpPort, runtimePort] = [await freePort(), await freePort()];
      dataDir = await mkdtemp(join(tmpdir(), 'seccomp-runtime-'));
      runtimeUrl = `http://127.0.0.1:${runtimePort}`;
      const [command, args] = under(process.execPath, ['--no-node-snapshot', '--conditions=source', `${REPO}runtime/src/main.ts`]);
      node = spawn(command, args, {
        cwd: REPO,
        env: {
          PATH: process.env.PATH, RUNTIME_SECRET: secret, RUNTIME_PORT: String(runtimePort), RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_WORKERS: '1',
          RUNTIME_DATA_DIR: dataDir, CONTROL_PLANE_URL: `http://127.0.0.1:${cpPort}`, LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Listening once it logs so (pino JSON lines); a node that dies under the profile fails here.
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          output.push(chunk.toString());
          if (output.join('').includes('runtime node listening')) resolve();
        };
        node.stdout!.on('data', seen);
        node.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
        node.once('exit', (code, signal) => reject(new Error(`the runtime node ended under the profile (${code ?? signal}):\n${output.join('')}`)));
      });
      stack = await startStack({ env: { PORT: String(cpPort), RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: secret } });
    }, 60_000);

    afterAll(async () => {
      await stack?.stop();
      if (node !== undefined && node.exitCode === null && node.signalCode === null) {
        const exited = new Promise((resolve) => node.once('exit', resolve));
        node.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    });

    it('runs a runtime node that reads a manifest and serves a hosted route in a sandbox worker', async () => {
      const ws = await stack.createWorkspace();
      const { app } = await createApp(ws.client, { hosting: 'platform' });
      const source = `export default {
  manifest: ${JSON.stringify({ schemaVersion: 1, name: 'Seccomp', slug: app.slug, hosting: 'platform' })},
  async fetch(request) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('seccomp'));
    return Response.json({ path: new URL(request.url).pathname, id: crypto.randomUUID().length, digest: digest.byteLength });
  },
};
`;
      const uploaded = await stack.v0(ws.apiKey).request('POST', `/apps/${app.id}/versions?target=production`, {
        rawBody: source, headers: { 'content-type': 'application/javascript' },
      });
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      const served = await fetch(`${runtimeUrl}/apps/${app.slug}/hello`);
      expect(served.status).toBe(200);
      expect(await served.json()).toEqual({ path: '/hello', id: 36, digest: 32 });
      expect((await fetch(`${runtimeUrl}/readyz`)).status).toBe(200);
      expect(node.exitCode).toBeNull();
    });

    it('refuses what it leaves out (the same command succeeds without it)', async () => {
      const file = join(dataDir, 'owned');
      await writeFile(file, '');
      const [command, args] = under('chown', [`${process.getuid!()}`, file]);
      const refused = spawnSync(command, args, { encoding: 'utf8' });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('Operation not permitted');
      expect(spawnSync('chown', [`${process.getuid!()}`, file]).status).toBe(0);
    });
  });
});
