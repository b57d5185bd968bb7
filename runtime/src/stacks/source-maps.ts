/**
 * @module stacks/source-maps
 * The source maps of the versions a sandbox worker runs, read from the node's data dir (the
 * supervisor writes each file whole, checked against its sha256) and parsed with
 * `@jridgewell/trace-mapping` the first time one of the version's stacks is mapped, then kept:
 * least recently used first out, within a budget of mapping segments (what the parsed form costs
 * in memory), so a worker holds a few large maps or many small ones.
 *
 * A map is the app author's upload and so untrusted. It is refused (its stacks stay as the bundle
 * names them, and the answer says why, once) when the file is larger than the limit, is not JSON,
 * is not a version 3 map with `mappings` and `sources`, is an index map (`sections`), has more
 * segments than the budget allows, or when trace-mapping throws on it. A map that parses but
 * points nowhere leaves the frames it does not cover as they were (stacks/map.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { LIMITS } from '@platform/sdk';

export type LoadedMap = { ok: true; map: TraceMap } | { ok: false; problem: string };

export interface SourceMaps {
  /** The parsed map at `path`; null while the file is not there (it may still be on its way). */
  get(path: string): LoadedMap | null;
}

export interface SourceMapOptions {
  maxBytes?: number;
  /** Mapping segments a single map may have (~60 bytes each once parsed). */
  maxSegments?: number;
  /** Segments of all the maps kept together. */
  budgetSegments?: number;
}

export const SOURCE_MAP_DEFAULTS = { maxSegments: 3_000_000, budgetSegments: 4_000_000 } as const;

/** `;` and `,` separate segments: their count bounds what the parsed form holds. */
function segmentCount(mappings: string): number {
  let n = 1;
  for (let i = 0; i < mappings.length; i++) {
    const c = mappings.charCodeAt(i);
    if (c === 44 || c === 59) n++;
  }
  return n;
}

function parse(text: string, maxSegments: number): LoadedMap & { segments: number } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'it is not JSON', segments: 0 };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, problem: 'it is not a source map object', segments: 0 };
  const raw = json as Record<string, unknown>;
  if ('sections' in raw) return { ok: false, problem: 'index maps (sections) are not supported', segments: 0 };
  if (raw.version !== 3 || typeof raw.mappings !== 'string' || !Array.isArray(raw.sources)) {
    return { ok: false, problem: 'it is not a version 3 source map with mappings and sources', segments: 0 };
  }
  const segments = segmentCount(raw.mappings);
  if (segments > maxSegments) return { ok: false, problem: `it has ${segments} mapping segments, more than ${maxSegments}`, segments: 0 };
  // The sources' text is not needed to map a position; it would only take memory.
  delete raw.sourcesContent;
  try {
    const map = new TraceMap(raw as never);
    // Decoding happens on the first lookup: done here, so a map that breaks it is refused now.
    originalPositionFor(map, { line: 1, column: 0 });
    return { ok: true, map, segments };
  } catch (err) {
    return { ok: false, problem: `it could not be read (${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'})`, segments: 0 };
  }
}

/**
 * @example
 * const maps = createSourceMaps();
 * const loaded = maps.get(spec.sourceMapPath);
 * if (loaded?.ok) originalPositionFor(loaded.map, { line: 1, column: 120 });
 */
export function createSourceMaps(options: SourceMapOptions = {}): SourceMaps {
  const maxBytes = options.maxBytes ?? LIMITS.hosted.sourceMapBytes;
  const maxSegments = options.maxSegments ?? SOURCE_MAP_DEFAULTS.maxSegments;
  const budget = options.budgetSegments ?? SOURCE_MAP_DEFAULTS.budgetSegments;
  const kept = new Map<string, LoadedMap & { segments: number }>();
  let used = 0;

  const keep = (path: string, loaded: LoadedMap & { segments: number }): void => {
    kept.set(path, loaded);
    used += loaded.segments;
    for (const [key, value] of kept) {
      if (used <= budget || key === path) break;
      kept.delete(key);
      used -= value.segments;
    }
  };

  const load = (path: string): (LoadedMap & { segments: number }) | null => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return null;
    }
    if (size > maxBytes) return { ok: false, problem: `it is ${size} bytes, more than ${maxBytes}`, segments: 0 };
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return null;
    }
    return parse(text, maxSegments);
  };

  return {
    get(path) {
      const hit = kept.get(path);
      if (hit !== undefined) {
        kept.delete(path);
        kept.set(path, hit); // most recently used last
        return hit;
      }
      const loaded = load(path);
      if (loaded !== null) keep(path, loaded);
      return loaded;
    },
  };
}
