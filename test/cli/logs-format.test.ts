/**
 * How `platform logs` prints a line: colour only on a terminal and never with NO_COLOR, stacks kept
 * to their first lines, each line cut at the terminal's width, `--json` whole.
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
});
