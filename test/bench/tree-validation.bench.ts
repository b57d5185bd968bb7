/**
 * Benchmark of `validateTree` (issue 4): the largest legal tree (250 components, close to 64 KB)
 * and hostile documents of about 10 MB (wide, deep, one long string, a million attribute keys).
 * Target: a median of at most 1 ms. Hostile input stops at the first limit it breaks, so its cost
 * does not grow with its size; the one exception is an object with a huge number of keys, which V8
 * lists in full before any loop sees its first key (its bar is the JSON.parse that produced it).
 * Run by `npm run bench` (test/bench/run.ts).
 */
import { performance } from 'node:perf_hooks';
import { renderTree, ui, validateTree, type Draft } from '../../sandbox-lib/src/catalog/index.ts';

interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  ratio: number | null;
}

const TARGET_MS = 1;

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Median wall time of `fn` in ms over `runs` runs, after `warmup` unmeasured ones. */
function time(fn: () => unknown, runs: number, warmup = Math.min(runs, 200)): number {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function components(node: unknown): number {
  if (!node || typeof node !== 'object') return 0;
  const { type, content } = node as { type?: string; content?: unknown[] };
  return (type === 'text' ? 0 : 1) + (content ?? []).reduce<number>((n, c) => n + components(c), 0);
}

/**
 * A block of exactly 250 components of many kinds whose texts are filled with three-byte
 * characters (which take the grapheme segmenter's slow path) until the tree is just under 64 KB.
 */
export function largestLegalTree() {
  const build = (fill: string, link = '') => {
    const body: Draft[] = [];
    let i = 0;
    const fixed = 1 + 4 + 1 + 5 + 1 + 12 + 1; // block, header (+title, status, badge), actions (+5 buttons, menu, 12 items), footer
    const rest = () => 250 - fixed - body.reduce((n, d) => n + components(d), 0);
    while (rest() >= 12) {
      body.push(
        ui.item({ title: `Task ${i}`, description: fill, href: `https://t.example.com/${i}?${link}` }, [ui.badge({ label: 'open' })]),
        ui.text([fill, ui.bold('!')]),
        ui.metrics([ui.metric({ label: 'Cost', value: i * 1.5, format: 'currency', currency: 'EUR' }), ui.metric({ label: 'Share', value: 0.25, format: 'percent' })]),
        ui.facts([ui.fact({ label: 'Owner', value: 'Ada' }), ui.fact({ label: 'Region', value: 'eu-west-1' })]),
      );
      i++;
    }
    while (rest() > 0) body.push(ui.text(fill));
    return renderTree(ui.block({ summary: 'Largest legal tree' }, [
      ui.header({ title: 'Quarterly review' }, [ui.status({ label: 'Open', tone: 'info' }), ui.badge({ label: 'Q3' })]),
      ...body,
      ui.actions([
        ...Array.from({ length: 5 }, (_, b) => ui.button({ label: `Action ${b}`, action: `act-${b}`, args: { b } })),
        ui.menu({ label: 'More' }, Array.from({ length: 12 }, (_, m) => ui.menuItem({ label: `Item ${m}`, action: 'more', args: { m } }))),
      ]),
      ui.footer('Generated for the benchmark'),
    ]));
  };
  // Grow the text until the next step would break the 20,000-character (or 64 KB) cap, then the
  // links (which are not text) until the next step would break 64 KB.
  const grow = (make: (n: number) => ReturnType<typeof build>) => {
    let n = 0;
    for (let step = 256; step >= 1; step >>= 1) {
      while (validateTree(make(n + step).tree, make(n + step).actions).valid) n += step;
    }
    return n;
  };
  const chars = grow((n) => build('語'.repeat(n)));
  const link = grow((n) => build('語'.repeat(chars), 'q'.repeat(n)));
  return build('語'.repeat(chars), 'q'.repeat(link));
}

function block(content: unknown[]) {
  return { type: 'uiBlock', attrs: { catalog: 1, summary: 'S' }, content };
}

/** About 10 MB each, built in memory (the HTTP layer parses; this measures validation). */
function hostileDocuments(): Array<[string, unknown]> {
  const wide = block(Array.from({ length: 200_000 }, () => ({ type: 'uiText', content: [{ type: 'text', text: 'abcdefghij' }] })));
  let deep: Record<string, unknown> = { type: 'uiStack', content: [] };
  const deepRoot = block([deep]);
  for (let i = 0; i < 300_000; i++) {
    const next = { type: 'uiStack', content: [] as unknown[] };
    (deep.content as unknown[]).push(next);
    deep = next;
  }
  const longString = block([{ type: 'uiText', content: [{ type: 'text', text: 'x'.repeat(10_000_000) }] }, { type: 'uiActions' }]);
  const keys = block([{ type: 'uiText', attrs: Object.fromEntries(Array.from({ length: 800_000 }, (_, i) => [`key${i}`, 1])) }]);
  return [['wide: 200,000 components', wide], ['deep: 300,000 levels', deepRoot], ['one 10 MB string', longString], ['800,000 attribute keys', keys]];
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const row = (name: string, ms: number): BenchRow => ({ name, value: ms, unit: 'ms', target: `≤ ${TARGET_MS} ms`, ratio: TARGET_MS / ms });

  const legal = largestLegalTree();
  const bytes = Buffer.byteLength(JSON.stringify(legal.tree));
  const check = validateTree(legal.tree, legal.actions);
  if (!check.valid || components(legal.tree) !== 250) throw new Error(`largest legal tree is not what it should be: ${JSON.stringify(check)}`);
  rows.push(row(`largest legal tree (250 components, ${(bytes / 1024).toFixed(1)} KB), median`, time(() => validateTree(legal.tree, legal.actions), 2000)));

  for (const [name, doc] of hostileDocuments()) {
    const answer = validateTree(doc);
    if (answer.valid) throw new Error(`hostile document ${name} was accepted`);
    const ms = time(() => validateTree(doc), 50, 5);
    if (!name.includes('keys')) {
      rows.push(row(`hostile ${name} → "${answer.message}", median`, ms));
      continue;
    }
    // V8 lists all keys of an object before a for-in or Object.keys yields the first, so an object
    // with a million keys costs its listing whatever the validator does. The fair bar is the parse
    // that produced it: validating must not cost more than parsing did.
    const text = JSON.stringify(doc);
    const parse = time(() => JSON.parse(text), 3, 1);
    rows.push({ name: `hostile ${name} (${(text.length / 1e6).toFixed(1)} MB) → "${answer.message}", median`, value: ms, unit: 'ms', target: `≤ JSON.parse (${parse.toFixed(0)} ms)`, ratio: parse / ms });
  }
  return rows;
}
