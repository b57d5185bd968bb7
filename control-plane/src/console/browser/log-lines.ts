/**
 * @module console/browser/log-lines
 * How the Logs page splits a line's message: its first line, and the rest (a stack) shown in a
 * closed disclosure. A stack logged inside an object arrives with its line breaks escaped by the
 * console's formatting (`{ error: { stack: "Error: boom\n    at …" } }`); those are read as the
 * line breaks they are, as `platform logs` does. Pure and in the browser folder (whose files import
 * nothing outside it), so the server page and the client script (which draws live lines) share it.
 */
export function splitMessage(message: string): { head: string; stack: string | null } {
  const text = /\\n\s+at /.test(message) ? message.replace(/\\n/g, '\n') : message;
  const cut = text.indexOf('\n');
  return cut === -1 ? { head: text, stack: null } : { head: text.slice(0, cut), stack: text.slice(cut + 1) };
}

/** A frame of a line's error, as `GET /v0/apps/{app_id}/logs` answers it. */
export interface ErrorFrame {
  function: string | null; file: string | null; line: number | null; column: number | null;
  raw: { function: string | null; file: string | null; line: number | null; column: number | null } | null;
}

export interface LineError { name: string; message: string; frames: ErrorFrame[] }

const where = (f: { file: string | null; line: number | null; column: number | null }): string =>
  (f.file === null ? '<anonymous>' : f.line === null ? f.file : `${f.file}:${f.line}:${f.column ?? 0}`);

/**
 * A line's error as the page draws it: its summary (`Error: boom · 12 frames`; the message's own
 * text when it says the error already), and every frame (`at explode (app.ts:7:9)`) with the
 * bundle's position beside it when the source map mapped it; `unmapped` when frames name the bundle.
 */
export function errorView(error: LineError, message: string): { summary: string; frames: Array<{ text: string; bundle: string | null }>; unmapped: boolean } {
  const head = message.endsWith(`${error.name}: ${error.message}`) ? 'Stack' : `${error.name}: ${error.message}`;
  const count = `${error.frames.length} frame${error.frames.length === 1 ? '' : 's'}`;
  return {
    summary: `${head} · ${count}`,
    frames: error.frames.map((f) => ({
      text: f.function === null ? `at ${where(f)}` : `at ${f.function} (${where(f)})`,
      bundle: f.raw === null ? null : where(f.raw),
    })),
    unmapped: error.frames.some((f) => f.raw === null && f.file === 'app:///bundle.js'),
  };
}
