/**
 * A drain's batch at its limits (DRAIN_LIMITS: 500 lines, 1 MiB of body): at the boundary one
 * batch, one past it the batch is cut before the line that would pass it. The body is exactly the
 * JSON a receiver parses.
 */
import { describe, expect, it } from 'vitest';
import { packBatch, type DrainLine } from '../../../control-plane/src/apps/log-drains/batch.ts';
import { DRAIN_LIMITS } from '../../../control-plane/src/apps/log-drains/limits.ts';

const limits = { maxLines: DRAIN_LIMITS.batchLines, maxBytes: DRAIN_LIMITS.batchBytes };

function line(seq: number, message: string): DrainLine {
  return {
    id: String(seq), at: '2026-01-01T00:00:00.000Z', appId: 'app_x', version: 1, installId: null, requestId: `req-${seq}`, deliveryId: null,
    kind: 'route', level: 'info', status: 'ok', message, request: null, error: null,
  };
}

/** Lines whose batch body is exactly `bytes` long (the last message padded to fit). */
function linesOfBody(bytes: number, count: number): DrainLine[] {
  const lines = Array.from({ length: count }, (_, i) => line(i + 1, 'x'.repeat(7_000)));
  const body = packBatch('drn_a', 'app_x', lines, { maxLines: count, maxBytes: Infinity })!.body;
  const last = lines[count - 1]!;
  lines[count - 1] = { ...last, message: last.message + 'y'.repeat(bytes - Buffer.byteLength(body)) };
  return lines;
}

describe('log drain batches', () => {
  it('sends a body of exactly 1 MiB as one batch, and cuts one byte more before its last line', () => {
    const exact = linesOfBody(DRAIN_LIMITS.batchBytes, 140);
    const one = packBatch('drn_a', 'app_x', exact, limits)!;
    expect(Buffer.byteLength(one.body)).toBe(DRAIN_LIMITS.batchBytes);
    expect(one.texts).toHaveLength(140);
    expect(JSON.parse(one.body).lines.map((l: DrainLine) => l.id)).toEqual(exact.map((l) => l.id));

    const over = linesOfBody(DRAIN_LIMITS.batchBytes + 1, 140);
    const cut = packBatch('drn_a', 'app_x', over, limits)!;
    expect(cut.texts).toHaveLength(139);
    expect(cut.lastSeq).toBe(139);
    expect(Buffer.byteLength(cut.body)).toBeLessThanOrEqual(DRAIN_LIMITS.batchBytes);
    const rest = packBatch('drn_a', 'app_x', over.slice(139), limits)!;
    expect(rest.firstSeq).toBe(140);
  });

  it('takes 500 lines a batch and leaves the 501st for the next', () => {
    const lines = Array.from({ length: 501 }, (_, i) => line(i + 1, `line ${i + 1}`));
    expect(packBatch('drn_a', 'app_x', lines.slice(0, 500), limits)!.texts).toHaveLength(500);
    const batch = packBatch('drn_a', 'app_x', lines, limits)!;
    expect(batch.texts).toHaveLength(500);
    expect(batch.lastSeq).toBe(500);
  });

  it('sends a line alone over the byte limit by itself rather than never', () => {
    const big = packBatch('drn_a', 'app_x', [line(1, 'z'.repeat(200)), line(2, 'small')], { maxLines: 500, maxBytes: 100 })!;
    expect(big.texts).toHaveLength(1);
    expect(big.lastSeq).toBe(1);
  });
});
