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
