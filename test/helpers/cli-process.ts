/**
 * The `platform` CLI in its own process, as an author runs it (from the sources, Node 24), with its
 * output collected: `waitFor` resolves once stdout or stderr matches, event-driven (no polling).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the whole output of `stream` once it matches; rejects if the CLI exits first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * @example const cli = spawnCli({ cwd, args: ['logs', '--follow'], env: { PLATFORM_URL, PLATFORM_API_KEY } });
 */
export function spawnCli(options: { cwd: string; args: string[]; env: Record<string, string>; bin?: string }): CliProcess {
  // `bin`: an installed CLI's bin script (as its package ships it), run as `platform` runs it.
  const entry = options.bin === undefined ? ['--conditions=source', join(REPO, 'cli/src/main.ts')] : [options.bin];
  const child = spawn(process.execPath, ['--no-node-snapshot', ...entry, ...options.args], {
    cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env },
  });
  const out = { stdout: '', stderr: '' };
  const waiting: Array<() => void> = [];
  const wake = () => { for (const w of waiting.splice(0)) w(); };
  child.stdout.on('data', (c: Buffer) => { out.stdout += c.toString(); wake(); });
  child.stderr.on('data', (c: Buffer) => { out.stderr += c.toString(); wake(); });
  let done = false;
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => { done = true; wake(); resolve({ code, ...out }); }));
  return {
    child,
    exited,
    async waitFor(stream, pattern) {
      for (;;) {
        if (pattern.test(out[stream])) return out[stream];
        if (done) throw new Error(`the CLI exited before its ${stream} matched ${pattern}:\n${out.stdout}\n${out.stderr}`);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
  };
}
