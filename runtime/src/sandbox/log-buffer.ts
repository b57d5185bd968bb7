/**
 * @module sandbox/log-buffer
 * The log lines of one request, capped (lines and characters) and with secret values replaced
 * before they leave the worker. A line about an error keeps the error's name, message and stack
 * text as the guest reported them; `take` turns them into frames of the author's sources
 * (sandbox/stacks.ts), once the request's guest work is done.
 */
import type { LogError } from '@platform/sdk';
import { createRedactor } from '../logs/redact.ts';
import type { LogLine } from '../protocol/messages.ts';
import type { RawError } from '../stacks/map.ts';
import { versionStacks, type VersionStacks } from './stacks.ts';

export const LOG_CAPS = { lines: 100, chars: 32 * 1024 } as const;

interface Held {
  level: LogLine['level'];
  message: string;
  at: number;
  error: RawError | null;
}

export function createLogBuffer(redact: string[], now: () => number, sourceMapPath: string | null = null, stacks: (path: string | null) => VersionStacks = versionStacks) {
  const clean = createRedactor(redact);
  const lines: Held[] = [];
  let chars = 0;
  let dropped = 0;
  const cleanError = (e: RawError | null | undefined): RawError | null =>
    e === null || e === undefined ? null : { name: clean(e.name), message: clean(e.message), stack: clean(e.stack) };
  return {
    add(level: LogLine['level'], message: string, error?: RawError | null): void {
      const text = clean(message);
      const held = cleanError(error);
      const size = text.length + (held?.stack.length ?? 0);
      if (lines.length >= LOG_CAPS.lines || chars + size > LOG_CAPS.chars) {
        dropped++;
        return;
      }
      chars += size;
      lines.push({ level, message: text, at: now(), error: held });
    },
    /** Limit events are always kept (they replace the last line when the buffer is full). */
    addLimit(message: string, error?: RawError | null): void {
      const text = clean(message).slice(0, 8_192);
      if (lines.length >= LOG_CAPS.lines) { lines.pop(); dropped++; }
      lines.push({ level: 'limit', message: text, at: now(), error: cleanError(error) });
    },
    /** Whether a line carries an error to map (the runner then answers before mapping). */
    hasErrors(): boolean {
      return lines.some((l) => l.error !== null);
    },
    /** The lines, errors mapped (a map that cannot be used adds one line saying so). */
    take(): { logs: LogLine[]; droppedLogs: number } {
      const held = lines.splice(0);
      if (!held.some((l) => l.error !== null)) return { logs: held.map(({ level, message, at }) => ({ level, message, at })), droppedLogs: dropped };
      const mapper = stacks(sourceMapPath);
      const logs: LogLine[] = held.map(({ level, message, at, error }) => {
        const mapped: LogError | undefined = error === null ? undefined : mapper.error(error);
        return mapped === undefined ? { level, message, at } : { level, message, at, error: mapped };
      });
      const problem = mapper.takeProblem();
      if (problem !== null) logs.push({ level: 'warn', message: problem, at: now() });
      return { logs, droppedLogs: dropped };
    },
  };
}

export type LogBuffer = ReturnType<typeof createLogBuffer>;
