/**
 * @module sandbox/log-buffer
 * The log lines of one request, capped (lines and characters) and with secret values replaced
 * before they leave the worker.
 */
import type { LogLine } from '../protocol/messages.ts';

export const LOG_CAPS = { lines: 100, chars: 32 * 1024 } as const;

export function createLogBuffer(redact: string[], now: () => number) {
  // Longest first, so that a secret containing another is replaced whole.
  const secrets = redact.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  const lines: LogLine[] = [];
  let chars = 0;
  let dropped = 0;
  const clean = (text: string): string => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  };
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
