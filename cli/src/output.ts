/**
 * @module cli/output
 * How the CLI's commands speak: results on stdout, progress and problems on stderr, and service
 * failures shown with their `_tag`, message and path (plus the error's own fields, such as a
 * manifest `reason` or a size `limit`), so a user can search the spec for the tag.
 */
import { isPlatformClientError, type PlatformClientError } from '@platform/sdk';

/**
 * A command that cannot go on for a reason that is not how it was called (not logged in, no such
 * app): `main` prints the message alone and exits 1, without the usage a `UsageError` adds.
 */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** A result line on stdout. */
export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** A note on stderr (not part of a command's result). */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * @example formatBytes(1536) // '1.5 KB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** `["blocks", 0, "type"]` → `blocks.0.type`; the root reads `(root)`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  return path.length === 0 ? '(root)' : path.join('.');
}

const SHOWN_ELSEWHERE = new Set(['_tag', 'message', 'path', 'issues']);

/**
 * The lines describing a failed call.
 * @example describeClientError(err) // ['PlatformAppManifestInvalidError: The slug … (at slug)', '  reason: slug-mismatch']
 */
export function describeClientError(err: PlatformClientError): string[] {
  const lines = [`${err.tag}: ${err.message}${err.path.length > 0 ? ` (at ${formatPath(err.path)})` : ''}`];
  const body = err.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (SHOWN_ELSEWHERE.has(key) || value === undefined) continue;
      lines.push(`  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
    const issues = (body as { issues?: unknown }).issues;
    if (Array.isArray(issues)) {
      for (const issue of issues as Array<{ path?: Array<string | number>; message?: string }>) {
        lines.push(`  - ${formatPath(issue.path ?? [])}: ${issue.message ?? ''}`);
      }
    }
  }
  return lines;
}

/**
 * Runs a command body; a service failure becomes an error whose message is its description
 * (`main` prints it and exits 1). Usage errors and others pass through unchanged.
 * @example await reportingFailures(() => deploy(flags));
 */
export async function reportingFailures<T>(run: () => Promise<T>, hint?: (err: PlatformClientError) => string | undefined): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isPlatformClientError(err)) throw err;
    const extra = hint?.(err);
    throw new Error([...describeClientError(err), ...(extra === undefined ? [] : [extra])].join('\n'), { cause: err });
  }
}
