/**
 * How `platform logs` prints a line: colour only on a terminal and never with NO_COLOR, a line's
 * error with every one of its frames (the author's file, line and function), an older line's stack
 * written into its text kept to its first lines, each line cut at the terminal's width, control
 * characters never written, `--json` whole.
 */
import { describe, expect, it } from 'vitest';
import { colourWanted, createPrinter, type LogLine } from '../../cli/src/logs-output.ts';

const base: LogLine = {
  id: '7', at: '2026-01-01T12:01:02.345Z', version: 3, kind: 'route', level: 'error', status: 'error', message: 'Error: boom',
  requestId: 'req_1', deliveryId: null, installId: null, request: null,
};

function printed(line: LogLine, options: { colour?: boolean; json?: boolean; width?: number | null } = {}): string[] {
  const out: string[] = [];
  createPrinter({ colour: options.colour ?? false, json: options.json ?? false, width: options.width ?? null, write: (t) => out.push(t) }).line(line);
  return out;
}

describe('platform logs output', () => {
  it('colours only a terminal without NO_COLOR', () => {
    expect(colourWanted({ isTTY: true }, {})).toBe(true);
    expect(colourWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted({ isTTY: false }, {})).toBe(false);
    expect(colourWanted({}, {})).toBe(false);
    expect(printed(base, { colour: true }).join('\n')).toMatch(/\u001b\[31mERROR/);
    expect(printed(base).join('\n')).not.toMatch(/\u001b\[/);
  });

  it('prints time, version, kind, level and message; a request line says REQ or FAIL', () => {
    expect(printed(base)).toEqual(['12:01:02.345 v3 route       ERROR  Error: boom']);
    const request = { ...base, level: 'request', status: 'ok' as const, message: 'GET / → 200 · cpu 1 ms · wall 2 ms · 0 outbound' };
    expect(printed(request)[0]).toContain('REQ    GET / → 200');
    expect(printed({ ...request, status: 'error' })[0]).toContain('FAIL   GET / → 200');
  });

  it('shows a stack, escaped or not, as indented lines, at most twelve of them', () => {
    const frames = Array.from({ length: 20 }, (_, i) => `    at f${i} (app:///bundle.js:${i}:1)`);
    const lines = printed({ ...base, message: ['Error: boom', ...frames].join('\n') });
    expect(lines).toHaveLength(1 + 12 + 1);
    expect(lines[1]).toBe('    at f0 (app:///bundle.js:0:1)');
    expect(lines.at(-1)).toBe('    … 8 more lines (--json shows them)');
    const escaped = printed({ ...base, message: 'Request failed { stack: "Error: boom\\n    at f (app:///bundle.js:1:1)" }' });
    expect(escaped).toEqual(['12:01:02.345 v3 route       ERROR  Request failed { stack: "Error: boom', '    at f (app:///bundle.js:1:1)" }']);
  });

  it('cuts lines at the terminal width; --json prints the line whole', () => {
    const long = { ...base, message: 'x'.repeat(500) };
    const [line] = printed(long, { width: 80 });
    expect(line!.length).toBeLessThanOrEqual(80);
    expect(line!.endsWith('…')).toBe(true);
    expect(JSON.parse(printed(long, { json: true, width: 80 })[0]!)).toEqual(long);
  });

  const frame = (i: number, mapped = true) => ({
    function: `fn${i}`, file: mapped ? 'app.ts' : 'app:///bundle.js', line: 10 + i, column: 3,
    raw: mapped ? { function: `m${i}`, file: 'app:///bundle.js', line: 1, column: 100 + i } : null,
  });

  it('prints a line\'s error below it with all of its frames, the author\'s files named', () => {
    const error = { name: 'Error', message: 'no greeting for ada', frames: Array.from({ length: 30 }, (_, i) => frame(i)) };
    const lines = printed({ ...base, message: 'Request failed: GET /apps/hello/boom/ada', error });
    expect(lines[0]).toBe('12:01:02.345 v3 route       ERROR  Request failed: GET /apps/hello/boom/ada');
    expect(lines[1]).toBe('    Error: no greeting for ada');
    expect(lines[2]).toBe('      at fn0 (app.ts:10:3)');
    // Whole: every frame, none cut away.
    expect(lines).toHaveLength(2 + 30);
    expect(lines.at(-1)).toBe('      at fn29 (app.ts:39:3)');
    // A message that is the error's first line is not repeated.
    expect(printed({ ...base, message: 'Error: no greeting for ada', error })[1]).toBe('      at fn0 (app.ts:10:3)');
    expect(printed({ ...base, message: 'Uncaught Error: no greeting for ada', error })[1]).toBe('      at fn0 (app.ts:10:3)');
  });

  it('says when the frames name the bundle (the version has no source map), and prints frames without a function or a file', () => {
    const error = { name: 'TypeError', message: 'x', frames: [frame(0, false), { function: null, file: null, line: null, column: null, raw: null }] };
    const lines = printed({ ...base, message: 'TypeError: x', error });
    expect(lines.slice(1)).toEqual([
      '      at fn0 (app:///bundle.js:10:3)',
      '      at <anonymous>',
      '      (positions in the uploaded bundle: this version has no source map the node could use)',
    ]);
  });

  it('never writes control characters of the app\'s text (a terminal\'s escape sequences among them)', () => {
    const lines = printed({ ...base, message: 'evil \u001b[2J\u001b]0;title\u0007 text', error: { name: 'E\u001b[31m', message: 'm', frames: [{ ...frame(0), function: 'f\u001b[0m' }] } });
    expect(lines.join('\n')).not.toMatch(/\u001b|\u0007/);
    expect(lines[0]).toContain('evil ?[2J?]0;title? text');
  });
});
