/**
 * @module apps/errors/fingerprint
 * What makes two errors "the same error" (docs/decisions/errors.md): the line's level, the error's
 * name, its message with the parts that change from one occurrence to the next masked (ids, numbers,
 * hex digests, addresses), and the innermost frame in the author's source (file and function, not
 * the line: a line moves with every edit above it, the function does not). The fingerprint is a
 * hash of those parts, so the same error on two versions is one group whose versions are listed.
 */
import { createHash } from 'node:crypto';
import type { StackFrame } from '@platform/sdk';

/** The innermost frame that names a file, as a group shows it. */
export interface TopFrame {
  file: string;
  function: string | null;
  line: number | null;
}

export interface ErrorParts {
  /** error and limit: a hosted app's log lines; delivery: a failed delivery of any app. */
  level: 'error' | 'limit' | 'delivery';
  name: string;
  /** The message, masked. */
  message: string;
  topFrame: TopFrame | null;
}

/** Masked messages are cut here: the rest of a long message rarely tells two errors apart. */
export const MASKED_MESSAGE_CHARS = 300;

/**
 * Ordered: the wider patterns first, so an id's digits are masked as the id, not as a number.
 * Quoted words stay (`reading 'name'` tells errors apart); what varies per occurrence goes.
 */
const MASKS: ReadonlyArray<[RegExp, string | ((match: string) => string)]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // A URL keeps its origin and path (which endpoint failed); its query and fragment vary.
  [/\bhttps?:\/\/[^\s'"<>]+/gi, (url) => url.replace(/[?#].*$/, '')],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<ip>'],
  [/\b[a-z]{2,12}_[a-z0-9]{6,}\b/gi, '<id>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\d+(?:\.\d+)?/g, '<n>'],
];

/** A message with what changes per occurrence masked, whitespace collapsed, and cut. */
export function maskMessage(message: string): string {
  let out = message;
  for (const [pattern, replacement] of MASKS) {
    out = typeof replacement === 'function' ? out.replace(pattern, replacement) : out.replace(pattern, replacement);
  }
  out = out.replace(/\s+/g, ' ').trim();
  return [...out].slice(0, MASKED_MESSAGE_CHARS).join('');
}

/** The innermost frame with a file (native frames and the platform's own are already left out). */
export function topFrame(frames: readonly StackFrame[]): TopFrame | null {
  const frame = frames.find((f) => f.file !== null);
  return frame === undefined || frame.file === null ? null : { file: frame.file, function: frame.function, line: frame.line };
}

/**
 * The group's key within its app. The frame's line takes part only for anonymous code, where the
 * function's name cannot tell two places in one file apart.
 */
export function fingerprint(parts: ErrorParts): string {
  const frame = parts.topFrame;
  const where = frame === null ? '' : `${frame.file}\u0000${frame.function ?? `line ${frame.line ?? '?'}`}`;
  const text = [parts.level, parts.name, parts.message, where].join('\u0001');
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
