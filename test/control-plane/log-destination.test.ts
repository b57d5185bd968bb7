/**
 * The control plane's JSON log lines go to stdout through a buffer (core/log/logger.ts,
 * `bufferedStdout`): one write per few kilobytes instead of one per line. What must hold: a line
 * logged just before the process ends is written all the same (an orderly exit, `process.exit` at
 * once, an uncaught exception), and a quiet process's lines come out without waiting for more.
 * Each case runs in a child process of its own, since only a real exit shows what is flushed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LOGGER = fileURLToPath(new URL('../../control-plane/src/core/log/logger.ts', import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts a child that makes a JSON logger, logs `lines` lines, then runs `then`. */
function logThen(lines: number, then: string): { child: ChildProcess; stdout: () => string; exited: Promise<number | null> } {
  const script = `
    import { createLogger } from ${JSON.stringify(LOGGER)};
    const log = createLogger({ logLevel: 'info', logFormat: 'json' });
    for (let i = 0; i < ${lines}; i++) log.info({ i }, 'line');
    ${then}
  `;
  const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=source', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, stdout: () => out, exited };
}

const indexes = (text: string): number[] => text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { i: number }).i);
const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('buffered log lines on stdout', () => {
  it('are all written when the process exits at once after logging', async () => {
    const run = logThen(500, 'process.exit(3);');
    expect(await run.exited).toBe(3);
    expect(indexes(run.stdout())).toEqual(upTo(500));
  });

  it('are all written when the process dies of an uncaught exception', async () => {
    const run = logThen(20, "setImmediate(() => { throw new Error('boom'); });");
    expect(await run.exited).toBe(1);
    expect(indexes(run.stdout())).toEqual(upTo(20));
  });

  it('are written when the event loop runs out', async () => {
    const run = logThen(3, '');
    expect(await run.exited).toBe(0);
    expect(indexes(run.stdout())).toEqual(upTo(3));
  });

  it('of a process that stays up and logs no more come out on their own', async () => {
    // Kept alive until its stdin ends; the one line is far below the buffer's size.
    const run = logThen(1, "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));");
    await once(run.child.stdout!, 'data');
    expect(indexes(run.stdout())).toEqual([0]);
    expect(run.child.exitCode).toBeNull();
    run.child.stdin!.end();
    expect(await run.exited).toBe(0);
  });
});
