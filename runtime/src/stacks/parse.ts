/**
 * @module stacks/parse
 * V8's stack text as frames (`at fn (file:line:column)`, `at file:line:column`, `at async fn (…)`,
 * `at fn (<anonymous>)`). The text is the guest's to write (`err.stack` is a plain property), so
 * nothing here trusts it: a line that is not a frame is skipped, numbers are bounded, and the
 * platform's own frames (the guest runtime, isolated-vm's boundary and the host below it) are
 * left out, since they are not the author's code.
 */

/** A frame as V8 wrote it: 1-based line and column; null where the frame has none. */
export interface RawFrame {
  function: string | null;
  file: string | null;
  line: number | null;
  column: number | null;
}

export const BUNDLE_URL = 'app:///bundle.js';
const GUEST_RUNTIME_URL = 'platform:///guest-runtime.js';
const BOUNDARY = '<isolated-vm boundary>';
const MAX_FRAMES = 50;
const MAX_TEXT = 500;

const LOCATION = /^(.*):(\d{1,9}):(\d{1,9})$/;

function location(text: string): Pick<RawFrame, 'file' | 'line' | 'column'> {
  const found = LOCATION.exec(text);
  if (found === null) return { file: text === '' || text === '<anonymous>' || text === 'native' ? null : text.slice(0, MAX_TEXT), line: null, column: null };
  return { file: found[1]!.slice(0, MAX_TEXT), line: Number(found[2]), column: Number(found[3]) };
}

/** One `    at …` line as a frame, or null when it is not one. */
export function parseFrame(line: string): RawFrame | null {
  const text = line.trim();
  if (!text.startsWith('at ')) return null;
  const body = text.slice(3);
  // `fn (location)`: the function is everything before the first ` (`, the location inside the last `)`.
  const open = body.indexOf(' (');
  if (open !== -1 && body.endsWith(')')) {
    const name = body.slice(0, open).replace(/^(async |new )+/, '');
    return { function: name === '' ? null : name.slice(0, MAX_TEXT), ...location(body.slice(open + 2, -1)) };
  }
  const bare = body.replace(/^async /, '');
  return { function: null, ...location(bare) };
}

/**
 * The author's frames of a stack text, innermost first, at most 50: stops at isolated-vm's
 * boundary (the host's frames follow it) and drops the guest runtime's own.
 * @example parseStack('Error: boom\n    at explode (app:///bundle.js:1:27)') // [{ function: 'explode', file: 'app:///bundle.js', line: 1, column: 27 }]
 */
export function parseStack(stack: string): RawFrame[] {
  const frames: RawFrame[] = [];
  for (const line of stack.split('\n')) {
    if (line.includes(BOUNDARY)) break;
    const frame = parseFrame(line);
    if (frame === null || frame.file === GUEST_RUNTIME_URL) continue;
    frames.push(frame);
    if (frames.length >= MAX_FRAMES) break;
  }
  return frames;
}
