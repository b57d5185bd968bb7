/**
 * @module apps/bundles/source-map-check
 * Whether an uploaded source map can be used to map stacks: JSON, a version 3 map (not an index
 * map with `sections`), `mappings` a string of Base64 VLQ segments, `sources` (and `names`, when
 * present) arrays of strings (or null), `sourcesContent` an array when present. The runtime node
 * reads it again with its own caps (runtime/src/stacks/source-maps.ts); this check is what lets the
 * upload refuse, with a reason, a map that would be of no use, rather than accept it silently.
 */
import { z } from 'zod';

const nullableStrings = z.array(z.string().nullable());

const SourceMapShape = z.object({
  version: z.literal(3, { message: 'version must be 3' }),
  mappings: z.string().regex(/^[A-Za-z0-9+/,;]*$/, 'mappings must be Base64 VLQ segments separated by , and ;'),
  sources: nullableStrings,
  names: z.array(z.string()).optional(),
  sourcesContent: nullableStrings.optional(),
  sourceRoot: z.string().optional(),
  file: z.string().optional(),
});

export interface SourceMapProblem {
  path: Array<string | number>;
  message: string;
}

/** Null when `bytes` is a usable source map, else what is wrong with it. */
export function checkSourceMap(bytes: Uint8Array): SourceMapProblem | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { path: [], message: 'it is not JSON (UTF-8)' };
  }
  if (typeof json === 'object' && json !== null && 'sections' in json) return { path: ['sections'], message: 'index maps (sections) are not supported' };
  const parsed = SourceMapShape.safeParse(json);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: issue.path.length === 0 ? 'it is not a source map object' : `${issue.path.join('.')}: ${issue.message}` };
}
