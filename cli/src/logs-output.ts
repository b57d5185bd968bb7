/**
 * @module cli/logs-output
 * How `platform logs` prints a line: `12:01:02.345 v3 route       ERROR  message`, a stack below it
 * (its first 12 frames), a CPU profile's link; colour by level only on a terminal without NO_COLOR,
 * each line cut at the terminal's width. `--json` prints the line as the API answers it, whole.
 */
import { styleText } from 'node:util';
import { print } from './output.ts';

export interface LogLine {
  id: string;
  at: string;
  version: number | null;
  kind: string;
  level: string;
  status: 'ok' | 'error';
  message: string;
  requestId: string | null;
  deliveryId: string | null;
  installId: string | null;
  request: { label: string; outcome: string; httpStatus: number | null; cpuMs: number; wallMs: number; outbound: number } | null;
  /** The path of the line's CPU profile download, or null. */
  profile?: string | null;
}

type Style = Parameters<typeof styleText>[0];

export interface Printer {
  line(l: LogLine): void;
}

/** Colour on a terminal only, and never with NO_COLOR set (https://no-color.org). */
export function colourWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

const LEVEL_STYLE: Record<string, Style> = { error: 'red', limit: ['red', 'bold'], warn: 'yellow', debug: 'gray', info: 'cyan', log: 'reset' };
const STACK_LINES = 12;

/**
 * A message as lines: a stack logged inside an object arrives with its line breaks escaped
 * (`{ error: { stack: "Error: boom\n    at …" } }`); those are shown as the lines they are.
 */
function messageLines(message: string): string[] {
  const text = /\\n\s+at /.test(message) ? message.replace(/\\n/g, '\n') : message;
  return text.split('\n');
}

/** `12:01:02.345 v3 route  ERROR  message` with the stack below, indented. */
export function createPrinter(options: { colour: boolean; json: boolean; width: number | null; baseUrl?: string; write?: (text: string) => void }): Printer {
  const write = options.write ?? print;
  const paint = (style: Style, text: string) => (options.colour ? styleText(style, text, { validateStream: false }) : text);
  const cut = (text: string, room: number | null) => (room !== null && text.length > room ? `${text.slice(0, Math.max(1, room - 1))}…` : text);
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
      for (const more of shown) write(paint('gray', `    ${cut(more.trimStart(), options.width === null ? null : options.width - 4)}`));
      if (rest.length > shown.length) write(paint('gray', `    … ${rest.length - shown.length} more lines (--json shows them)`));
      if (typeof l.profile === 'string') write(paint('cyan', `    CPU profile: platform logs --profile ${l.id}  (${options.baseUrl ?? ''}${l.profile})`));
    },
  };
}
