/**
 * @module cli/logs-output
 * How `platform logs` (and `platform dev`) prints a line: `12:01:02.345 v3 route       ERROR  message`,
 * then the line's error with every one of its frames (`at explode (app.ts:4:9)`: the author's
 * file, line and function when the version's source map mapped it), a CPU profile's link; colour
 * by level only on a terminal without NO_COLOR, each line cut at the terminal's width. `--json`
 * prints the line as the API answers it, whole.
 *
 * What is printed is the app's text, and an app logs what members send it: control characters
 * (a terminal's escape sequences among them) are shown as `?`, never written.
 */
import { styleText } from 'node:util';
import type { LogError, LogLine as WireLogLine, StackFrame } from '@platform/sdk';
import { print } from './output.ts';

/** A line as the API answers it (older services send no `error`). */
export type LogLine = Omit<WireLogLine, 'appId' | 'level' | 'error' | 'profile'> & {
  appId?: string;
  level: string;
  error?: LogError | null;
  /** The path of the line's CPU profile download, or null. */
  profile?: string | null;
};

type Style = Parameters<typeof styleText>[0];

export interface Printer {
  line(l: LogLine): void;
}

/** Colour on a terminal only, and never with NO_COLOR set (https://no-color.org). */
export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

const LEVEL_STYLE: Record<string, Style> = { error: 'red', limit: ['red', 'bold'], warn: 'yellow', debug: 'gray', info: 'cyan', log: 'reset' };
/** Lines of a message's own text shown below its first (a stack written into the text, by an older service). */
const STACK_LINES = 12;
const BUNDLE_FILE = 'app:///bundle.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const safe = (text: string): string => text.replace(CONTROL, '?');

/**
 * A message as lines: a stack logged inside an object arrives with its line breaks escaped
 * (`{ error: { stack: "Error: boom\n    at …" } }`); those are shown as the lines they are.
 */
function messageLines(message: string): string[] {
  const text = /\\n\s+at /.test(message) ? message.replace(/\\n/g, '\n') : message;
  return safe(text).split('\n');
}

/** `at explode (app.ts:4:9)`, or `at app.ts:12:3` for a frame without a function name. */
export function frameText(f: StackFrame): string {
  const where = f.file === null ? '<anonymous>' : f.line === null ? f.file : `${f.file}:${f.line}:${f.column ?? 0}`;
  return safe(f.function === null ? `at ${where}` : `at ${f.function} (${where})`);
}

/**
 * The lines of a line's error below its message: its `Name: message` (unless the message says it
 * already), then every frame; a note when the frames name positions in the bundle.
 * @example errorLines({ name: 'Error', message: 'boom', frames }, 'Request failed: GET /apps/hello/boom')
 */
export function errorLines(error: LogError, message: string): string[] {
  const head = safe(`${error.name}: ${error.message}`);
  // `Error: boom`, `Uncaught Error: boom`, `waitUntil: Error: boom`: the message says it already.
  const lines = message.endsWith(`${error.name}: ${error.message}`) ? [] : head.split('\n');
  const frames = error.frames.map((f) => `  ${frameText(f)}`);
  const unmapped = error.frames.some((f) => f.raw === null && f.file === BUNDLE_FILE);
  return [...lines, ...frames, ...(unmapped ? ['  (positions in the uploaded bundle: this version has no source map the node could use)'] : [])];
}

/** `12:01:02.345 v3 route  ERROR  message` with the error's frames below, indented. */
export function createPrinter(options: { colour: boolean; json: boolean; width: number | null; baseUrl?: string; write?: (text: string) => void }): Printer {
  const write = options.write ?? print;
  const paint = (style: Style, text: string) => (options.colour ? styleText(style, text, { validateStream: false }) : text);
  const cut = (text: string, room: number | null) => (room !== null && text.length > room ? `${text.slice(0, Math.max(1, room - 1))}…` : text);
  const below = (text: string) => write(paint('gray', `    ${cut(text, options.width === null ? null : options.width - 4)}`));
  return {
    line(l) {
      if (options.json) return write(JSON.stringify(l));
      const time = l.at.slice(11, 23);
      const prefix = `${time} ${l.version === null ? '  ' : `v${l.version}`} ${l.kind.padEnd(11)} `;
      const level = l.level === 'request' ? (l.status === 'error' ? 'FAIL' : 'REQ') : l.level.toUpperCase();
      const style: Style = l.level === 'request' ? (l.status === 'error' ? 'red' : 'green') : LEVEL_STYLE[l.level] ?? 'reset';
      const [first = '', ...rest] = messageLines(l.message);
      const room = options.width === null ? null : options.width - prefix.length - 7;
      write(`${paint('gray', prefix)}${paint(style, level.padEnd(6))} ${cut(first, room)}`);
      const shown = rest.slice(0, STACK_LINES);
      for (const more of shown) below(more.trimStart());
      if (rest.length > shown.length) below(`… ${rest.length - shown.length} more lines (--json shows them)`);
      // The error's frames are data: all of them are shown (the node keeps at most 50).
      if (l.error != null) for (const text of errorLines(l.error, l.message)) below(text);
      if (typeof l.profile === 'string') write(paint('cyan', `    CPU profile: platform logs --profile ${l.id}  (${options.baseUrl ?? ''}${l.profile})`));
    },
  };
}
