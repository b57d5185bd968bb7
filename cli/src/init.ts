/**
 * @module cli/init
 * `platform init [dir] [--template hosted|self-hosted|mcp]`: a new project in a folder of the
 * author's choosing, like `npm create cloudflare`: the template's files (cli/templates/<name>/ and
 * the shared ones in cli/templates/shared/, shipped in the package) with the app's name and slug
 * taken from the folder, and package.json depending on `@platform/sdk` and `@platform/cli` at this
 * CLI's version range (the packages move together). A folder that has anything in it is refused:
 * init never overwrites an author's files.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cliPackage from '../package.json' with { type: 'json' };
import { parseCommandArgs, UsageError } from './args.ts';
import { CommandError } from './output.ts';

export const TEMPLATES = {
  hosted: 'a hosted app with a block, a command and a route (the default)',
  'self-hosted': 'a self-hosted app served on node:http (server.ts)',
  mcp: 'a hosted MCP server with one tool',
} as const;
export type TemplateName = keyof typeof TEMPLATES;

export const INIT_USAGE = `Usage: platform init [dir] [--template hosted|self-hosted|mcp]

Creates a project in dir (default: the current folder; it must be empty or not exist yet):
app.ts, app.test.ts (it uses @platform/sdk/testing), package.json, tsconfig.json, .gitignore and a
README. The app's name and slug come from the folder's name. Then: npm install && npm test.

Templates:
${Object.entries(TEMPLATES).map(([name, what]) => `  ${name.padEnd(12)} ${what}`).join('\n')}`;

// Beside src/ and dist/ alike (both are one folder below the package root).
const TEMPLATE_ROOT = fileURLToPath(new URL('../templates/', import.meta.url));
// npm leaves `.gitignore` out of packages, so the templates carry it as `gitignore`.
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

/** The app slug a folder name makes (3 to 32 of a-z, 0-9, -). */
export function slugFrom(folder: string): string {
  const slug = folder.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32).replace(/-+$/, '');
  return slug.length >= 3 ? slug : `${slug || 'app'}-app`.replace(/^-/, '');
}

/** "my-first-app" → "My First App". */
function nameFrom(slug: string): string {
  return slug.split('-').filter((w) => w !== '').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

/** Writes the project; answers the files written, relative to `dir`. */
export function createProject(dir: string, template: TemplateName, version: string = cliPackage.version): string[] {
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new CommandError(`${dir} is a file: platform init makes a project in a new or empty folder`);
    const present = readdirSync(dir);
    if (present.length > 0) {
      throw new CommandError(`${dir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): platform init makes a project in a new or empty folder, and never overwrites files`);
    }
  }
  const slug = slugFrom(basename(resolve(dir)));
  const values: Record<string, string> = { name: nameFrom(slug), slug, range: `^${version}` };
  const written: string[] = [];
  for (const source of [join(TEMPLATE_ROOT, 'shared'), join(TEMPLATE_ROOT, template)]) {
    for (const file of filesOf(source)) {
      const target = join(dir, ...file.split('/').map((part) => RENAMED[part] ?? part));
      const text = readFileSync(join(source, file), 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, text);
      written.push(relative(dir, target));
    }
  }
  return written.sort();
}

export async function initCommand(argv: readonly string[], print: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<void> {
  const { flags, positionals } = parseCommandArgs(argv, { template: { type: 'string' } });
  if (positionals.length > 1) throw new UsageError(`init takes one folder, not ${positionals.length}`);
  const template = flags.template ?? 'hosted';
  if (!Object.hasOwn(TEMPLATES, template)) throw new UsageError(`Unknown template "${template}": one of ${Object.keys(TEMPLATES).join(', ')}`);
  const dir = resolve(positionals[0] ?? '.');
  const written = createProject(dir, template as TemplateName);
  const cd = positionals[0] === undefined ? [] : [`  cd ${positionals[0]}`];
  print([
    `Created a ${template} project in ${dir}:`, ...written.map((f) => `  ${f}`), '',
    'Next:', ...cd, '  npm install', '  npm test', '  npx platform deploy --production --create',
  ].join('\n'));
}
