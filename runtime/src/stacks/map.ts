/**
 * @module stacks/map
 * Frames of the bundle (`app:///bundle.js:line:column`) mapped through the version's source map to
 * the author's file, line and column, the bundle's position kept as `raw`. A frame the map does not
 * cover (another file, a native frame, a position no mapping reaches) stays as it was.
 *
 * Function names: V8 names a frame by the function's name in the bundle, which minifying renamed
 * (`Mb`). The original name is the one the source map gives the *caller's* call site (the frame
 * below: it calls this function by its original name), as Node's `--enable-source-maps` and
 * Sentry do when the enclosing function's start is not known; without one the bundle's name stays
 * (object keys such as a route's `'GET /hello/:name'` are never renamed, so those read as written).
 *
 * What a map says is the author's text: names and paths are cut and stripped of control characters
 * before anyone's terminal prints them.
 */
import { originalPositionFor, type TraceMap } from '@jridgewell/trace-mapping';
import { LOG_ERROR_LIMITS, type LogError, type StackFrame } from '@platform/sdk';

type StackPosition = Omit<StackFrame, 'raw'>;
import { BUNDLE_URL, parseStack, type RawFrame } from './parse.ts';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const clean = (text: string, max: number): string => text.replace(CONTROL, '?').slice(0, max);

interface Original { file: string; line: number; column: number; name: string | null }

function lookup(map: TraceMap, line: number, column: number): Original | null {
  try {
    const found = originalPositionFor(map, { line, column: Math.max(0, column - 1) });
    if (found.source === null || found.line === null || found.column === null) return null;
    return { file: found.source, line: found.line, column: found.column + 1, name: found.name };
  } catch {
    return null;
  }
}

const inBundle = (f: RawFrame): f is RawFrame & { line: number; column: number } => f.file === BUNDLE_URL && f.line !== null && f.column !== null;

function position(f: RawFrame): StackPosition {
  return {
    function: f.function === null ? null : clean(f.function, LOG_ERROR_LIMITS.functionChars),
    file: f.file === null ? null : clean(f.file, LOG_ERROR_LIMITS.fileChars),
    line: f.line, column: f.column,
  };
}

const kept = (f: RawFrame): StackFrame => ({ ...position(f), raw: null });

/**
 * @example mapFrames(parseStack(err.stack), map) // [{ function: 'explode', file: 'app.ts', line: 4, column: 9, raw: { … } }]
 */
export function mapFrames(frames: readonly RawFrame[], map: TraceMap | null): StackFrame[] {
  if (map === null) return frames.map(kept);
  const originals = frames.map((f) => (inBundle(f) ? lookup(map, f.line, f.column) : null));
  return frames.map((f, i) => {
    const original = originals[i];
    if (original === null || original === undefined) return kept(f);
    const caller = originals[i + 1];
    const name = caller?.name ?? f.function;
    return {
      function: name === null ? null : clean(name, LOG_ERROR_LIMITS.functionChars),
      file: clean(original.file, LOG_ERROR_LIMITS.fileChars),
      line: original.line, column: original.column,
      raw: position(f),
    };
  });
}

/** An error as the guest reported it: its name, message and V8's stack text. */
export interface RawError {
  name: string;
  message: string;
  stack: string;
}

/** The line's error as data: name, message, the author's frames (mapped when `map` is given). */
export function toLogError(raw: RawError, map: TraceMap | null): LogError {
  return {
    name: clean(raw.name, LOG_ERROR_LIMITS.nameChars),
    message: raw.message.slice(0, LOG_ERROR_LIMITS.messageChars),
    frames: mapFrames(parseStack(raw.stack), map),
  };
}

/** `    at fn (file:line:column)`: a frame as a stack line, for messages that carry text only. */
export function frameText(f: StackFrame): string {
  const where = f.file === null ? '<anonymous>' : f.line === null ? f.file : `${f.file}:${f.line}:${f.column ?? 0}`;
  return f.function === null ? `    at ${where}` : `    at ${f.function} (${where})`;
}

/** A CPU profile node's frame (0-based line and column, as Chrome DevTools' format has them). */
export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/**
 * A profile's frame in the author's file: a profile names where each function starts, and the
 * mapping there usually carries the function's original name. DevTools then shows the author's
 * file, line and function in every view of the profile.
 */
export function mapCallFrame(frame: CallFrame, map: TraceMap): CallFrame {
  if (frame.url !== BUNDLE_URL || frame.lineNumber < 0) return frame;
  const original = lookup(map, frame.lineNumber + 1, frame.columnNumber + 1);
  if (original === null) return frame;
  return {
    functionName: clean(original.name ?? frame.functionName, LOG_ERROR_LIMITS.functionChars),
    scriptId: frame.scriptId,
    url: clean(original.file, LOG_ERROR_LIMITS.fileChars),
    lineNumber: original.line - 1,
    columnNumber: original.column - 1,
  };
}
