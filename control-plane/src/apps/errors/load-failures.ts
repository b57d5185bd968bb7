/**
 * @module apps/errors/load-failures
 * A bundle refused at upload because it does not load (it throws while loading, runs past its
 * startup CPU budget or out of memory) becomes a line of the app's log, and through it an
 * occurrence of an error group like any other error line: the group links the line, its stack is
 * the author's (mapped on the node when a source map came with the bundle). It never became a
 * version, so the line has none (the group's version is "unknown") and no install.
 */
import { PlatformError } from '@platform/sdk';
import type { ShippedLine } from '../logs/schemas.ts';

/** The tags of a bundle's own load faults (apps/publish/manifest-reader-runtime.ts passes these on). */
const LOAD_FAULTS = new Set(['PlatformAppBundleInvalidError', 'PlatformRuntimeCpuLimitError', 'PlatformRuntimeMemoryLimitError']);

interface Frame { function: string | null; file: string | null; line: number | null; column: number | null }
type ShippedError = NonNullable<ShippedLine['error']>;

function shippedError(value: unknown): ShippedError | undefined {
  const e = value as { name?: unknown; message?: unknown; frames?: unknown } | null | undefined;
  if (e === null || e === undefined || typeof e.name !== 'string' || typeof e.message !== 'string' || !Array.isArray(e.frames)) return undefined;
  const position = (f: Partial<Frame> | null | undefined): Frame => ({ function: f?.function ?? null, file: f?.file ?? null, line: f?.line ?? null, column: f?.column ?? null });
  const frames = (e.frames as Array<Partial<Frame> & { raw?: Partial<Frame> | null }>).slice(0, 50).map((f) => ({ ...position(f), raw: f.raw === null || f.raw === undefined ? null : position(f.raw) }));
  return { name: e.name.slice(0, 200), message: e.message.slice(0, 2_000), frames };
}

/** The log line of an upload refused for `err`, or null when `err` is not a load fault of the bundle. */
export function loadFailureLine(appId: string, target: string, err: unknown, at: Date): ShippedLine | null {
  if (!(err instanceof PlatformError) || !LOAD_FAULTS.has(err.tag)) return null;
  const summary = err.message.split('\n')[0]!;
  // What the code threw when it threw; else the refusal itself (a CPU or memory stop, no manifest computed).
  const error = shippedError(err.fields.error) ?? { name: err.tag, message: summary.slice(0, 2_000), frames: [] };
  const limit = err.tag !== 'PlatformAppBundleInvalidError';
  return {
    at: at.toISOString(), appId, version: null, requestId: '', deliveryId: null, installId: null, kind: 'lifecycle',
    level: limit ? 'limit' : 'error', status: 'error',
    message: `Upload to ${target} refused: ${summary.slice(0, 1_000)}`, error,
  };
}
