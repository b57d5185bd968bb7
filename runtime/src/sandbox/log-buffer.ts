/**
 * @module sandbox/log-buffer
 * The log lines of one request, capped (lines and characters) and with secret values replaced
 * before they leave the worker.
 */
import { createRedactor } from '../logs/redact.ts';
import type { LogLine } from '../protocol/messages.ts';

export const LOG_CAPS = { lines: 100, chars: 32 * 1024 } as const;

export function createLogBuffer(redact: string[], now: () => number) {
  const clean = createRedactor(redact);
  const lines: LogLine[] = [];
  let chars = 0;
  let dropped = 0;
  return {
    add(level: LogLine['level'], message: string): void {
      const text = clean(message);
      if (lines.length >= LOG_CAPS.lines || chars + text.length > LOG_CAPS.chars) {
        dropped++;
        return;
      }
      chars += text.length;
      lines.push({ level, message: text, at: now() });
    },
    /** Limit events are always kept (they replace the last line when the buffer is full). */
    addLimit(message: string): void {
      const text = clean(message).slice(0, 8_192);
      if (lines.length >= LOG_CAPS.lines) { lines.pop(); dropped++; }
      lines.push({ level: 'limit', message: text, at: now() });
    },
    take(): { logs: LogLine[]; droppedLogs: number } {
      return { logs: lines.splice(0), droppedLogs: dropped };
    },
  };
}

export type LogBuffer = ReturnType<typeof createLogBuffer>;
