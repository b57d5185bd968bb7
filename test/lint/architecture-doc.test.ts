// docs/architecture.md stays true: each area's row lists exactly the area's folders, and every file or
// folder the page names exists (issue 26: it named a removed file and left a folder out).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'control-plane/src');
// Fenced blocks (the diagram) are not names.
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').replace(/```[\s\S]*?```/g, '');
const AREAS = ['core', 'workspace', 'apps', 'deliveries', 'messaging', 'blocks'];

const foldersOf = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const codes = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** The table row of `area/`: its second cell's names. */
function listedFolders(area: string): string[] {
  const row = DOC.split('\n').find((line) => line.startsWith(`| \`${area}/\` |`));
  if (row === undefined) return [];
  return codes(row.split('|')[2]!).sort();
}

/** A name the page writes as a path: a file (`x.ts`, `x.sql`, …) or something with a slash, not a URL path, package or pattern. */
const isPath = (code: string) => !/[\s{}*<>…()]/.test(code) && !code.startsWith('/') && !code.startsWith('@') && (/\.(ts|sql|cjs|mjs|md|json)$/.test(code) || code.includes('/'));

/** Where a path the page names may stand: the repository, the control plane's tree, an area, a feature folder, the migrations. */
function bases(): string[] {
  const found = [ROOT, SRC, join(ROOT, 'control-plane/migrations'), join(ROOT, 'docs')];
  for (const area of [...AREAS, 'console']) {
    found.push(join(SRC, area));
    for (const folder of foldersOf(join(SRC, area))) found.push(join(SRC, area, folder));
  }
  return found;
}

describe('docs/architecture.md', () => {
  it.each(AREAS)('lists exactly the folders of %s/', (area) => {
    expect(listedFolders(area)).toEqual(foldersOf(join(SRC, area)));
  });

  it('names only files and folders that exist', () => {
    const where = bases();
    const missing = [...new Set(codes(DOC).filter(isPath))]
      .map((code) => code.replace(/\/$/, ''))
      .filter((path) => !where.some((base) => existsSync(join(base, path))));
    expect(missing).toEqual([]);
  });

  it('finds the paths it checks (the check is not empty)', () => {
    expect(codes(DOC).filter(isPath).length).toBeGreaterThan(50);
  });
});
