/**
 * @module cli/check
 * `platform check <tree.json> [--local]`: validates a block tree (and its action table) with the
 * service's validator (`POST /v0/apps/check/trees`), or with the library's own `validateTree`
 * when `--local` (no service, no credentials). The file holds a tree (`{ "type": "uiBlock", … }`)
 * or `{ "tree": …, "actions": … }`. Prints `ok`, or the problem with its path and exits 1.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { validateTree, createPlatformClient } from '@platform/sdk';
import { parseCommandArgs, SERVICE_OPTIONS, UsageError } from './args.ts';
import { resolveSession } from './config-store.ts';
import { formatPath, print, reportingFailures } from './output.ts';

export const CHECK_USAGE = `Usage: platform check <tree.json> [--local] [--url <service URL>] [--key <API key>]

Validates a block tree: the file holds the tree, or { "tree": …, "actions": … }. Prints ok, or
the first problem with its path in the tree (exit 1). --local checks with the library, offline.`;

/** A file's tree and action table. */
export function readTreeFile(json: unknown): { tree: unknown; actions?: unknown } {
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && !('type' in json) && 'tree' in json) {
    const { tree, actions } = json as { tree: unknown; actions?: unknown };
    return actions === undefined ? { tree } : { tree, actions };
  }
  return { tree: json };
}

/**
 * @example await checkCommand(['tree.json', '--local']);
 */
export async function checkCommand(argv: readonly string[]): Promise<void> {
  const { positionals, flags } = parseCommandArgs(argv, { local: { type: 'boolean' }, ...SERVICE_OPTIONS });
  if (positionals.length !== 1) throw new UsageError('platform check takes one file: platform check tree.json');
  const file = positionals[0]!;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(resolve(process.cwd(), file), 'utf8'));
  } catch (err) {
    throw new UsageError(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  const { tree, actions } = readTreeFile(json);

  let result: { valid: true } | { valid: false; message: string; path: Array<string | number> };
  if (flags.local) {
    result = validateTree(tree, actions);
  } else {
    const session = await resolveSession({ url: flags.url, key: flags.key });
    const client = createPlatformClient({ baseUrl: session.url, token: session.apiKey });
    const body = (actions === undefined ? { tree } : { tree, actions }) as Parameters<typeof client.apps.checkTree>[0];
    result = await reportingFailures(() => client.apps.checkTree(body)) as typeof result;
  }
  if (result.valid) return print(`ok: ${file} is a valid tree${flags.local ? ' (checked locally)' : ''}`);
  throw new Error(`invalid: ${result.message} (at ${formatPath(result.path)})`);
}
