/**
 * What refusing duplicate keys adds to every JSON body (issue 26, hardening): the body reader's
 * work before (`JSON.parse`, the depth check, the NUL and ill-formed Unicode check) and after (the
 * same, plus `duplicateKeyPath`), on three typical bodies: a small create (a circle), a message, and
 * a block update with a tree of about 2 KB. Target: the scan adds at most half of what was there
 * before. `BENCH_JSON_RUNS` sets the runs (default 100,000) so a tiny setting checks the bench runs.
 * Run by `npm run bench` (test/bench/run.ts).
 */
import { performance } from 'node:perf_hooks';
import { duplicateKeyPath } from '../../control-plane/src/core/http/duplicate-keys.ts';
import { jsonDepth } from '../../control-plane/src/core/http/json.ts';
import { assertCleanJson } from '../../control-plane/src/core/http/request-strings.ts';
import type { BenchRow } from './run.ts';

const RUNS = Number(process.env.BENCH_JSON_RUNS ?? 100_000);
const TARGET = 0.5;

const tree = {
  type: 'uiBlock',
  attrs: { catalog: 1, summary: 'Deploy #42 is waiting for approval' },
  content: [
    { type: 'uiHeader', content: [{ type: 'uiHeaderTitle', content: [{ type: 'text', text: 'Deploy #42 to production' }] }] },
    ...Array.from({ length: 8 }, (_, i) => ({ type: 'uiItem', attrs: { title: `Service ${i}`, description: 'Rolled out at 04:15 UTC, see https://ci.example.com/runs/42', href: `https://ci.example.com/s/${i}` }, content: [{ type: 'uiBadge', attrs: { label: 'ready' } }] })),
    { type: 'uiActions', content: [{ type: 'uiButton', attrs: { buttonType: 'action', label: 'Approve', action: { ref: 'a0' } } }] },
  ],
};

const BODIES: Array<[string, string]> = [
  ['circle', JSON.stringify({ name: 'Design reviews', visibility: 'private', chat: true })],
  ['message', JSON.stringify({ text: 'Standup at 10:00 — notes in https://docs.example.com/standup, please add yours.', replyTo: 'msg_01JEXAMPLE0000000000000000' })],
  ['block', JSON.stringify({ expectedVersion: 7, tree, actions: { a0: { name: 'approve', data: { deploy: 42 } } }, state: { approvals: [] } })],
];

/** The body reader's work on `text` before issue 26. */
function before(text: string): unknown {
  const value: unknown = JSON.parse(text);
  jsonDepth(value);
  assertCleanJson(value);
  return value;
}

/** And after: the key count of the string check's walk lets a body without repeats skip the scan. */
function after(text: string): unknown {
  const value: unknown = JSON.parse(text);
  jsonDepth(value);
  duplicateKeyPath(text, assertCleanJson(value));
  return value;
}

/** ns per call of `fn` over one batch. */
function batchNs(fn: () => unknown, batch: number): number {
  const start = performance.now();
  for (let i = 0; i < batch; i++) fn();
  return ((performance.now() - start) * 1e6) / batch;
}

/**
 * Median ns per call of `a` and of `b`, measured in alternating batches after a warm-up, so that a
 * shared machine's drift touches both alike.
 */
function compare(a: () => unknown, b: () => unknown): [number, number] {
  const batch = Math.max(1, Math.floor(RUNS / 20));
  batchNs(a, batch * 2);
  batchNs(b, batch * 2);
  const as: number[] = [];
  const bs: number[] = [];
  for (let round = 0; round < 20; round++) {
    as.push(batchNs(a, batch));
    bs.push(batchNs(b, batch));
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
  return [median(as), median(bs)];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [name, text] of BODIES) {
    const [was, is] = compare(() => before(text), () => after(text));
    const added = Math.max(0, is - was) / was;
    rows.push({ name: `${name} body (${text.length} B): parse and checks before`, value: was / 1000, unit: 'µs', target: '–', ratio: null });
    rows.push({ name: `${name} body: with the duplicate-key check`, value: is / 1000, unit: 'µs', target: '–', ratio: null });
    rows.push({ name: `${name} body: added by the check`, value: added * 100, unit: '%', target: `≤ ${TARGET * 100} %`, ratio: added === 0 ? 10 : TARGET / added });
  }
  return rows;
}
