/**
 * The upload progress bar: the body stream hands out the bundle chunk by chunk only as the reader
 * pulls (so counted bytes are bytes taken by the HTTP client), the bar redraws on a terminal when
 * its percentage changes, and elsewhere writes one line at the end.
 */
import { describe, expect, it } from 'vitest';
import { countingStream, createProgressBar } from '../../cli/src/progress.ts';

async function drain(stream: ReadableStream<Uint8Array>, afterEach: () => void): Promise<Uint8Array> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    afterEach();
  }
  return Buffer.concat(parts);
}

describe('countingStream', () => {
  it('yields the bytes unchanged and counts only what was pulled', async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
    const seen: number[] = [];
    const stream = countingStream(bytes, (sent) => seen.push(sent), 300);
    // Nothing is read ahead before the first pull.
    await Promise.resolve();
    expect(seen).toEqual([]);
    const pulledBeforeEachRead: number[] = [];
    const out = await drain(stream, () => pulledBeforeEachRead.push(seen.at(-1)!));
    expect(Buffer.from(out).equals(Buffer.from(bytes))).toBe(true);
    expect(seen).toEqual([300, 600, 900, 1000]);
    expect(pulledBeforeEachRead).toEqual([300, 600, 900, 1000]);
  });
});

describe('createProgressBar', () => {
  it('redraws in place on a terminal, once per whole percent', () => {
    const frames: string[] = [];
    const bar = createProgressBar({ label: 'Uploading', total: 2048, sink: { isTTY: true, write: (t: string) => frames.push(t) } });
    bar.update(0);
    bar.update(1);
    bar.update(1024);
    bar.update(1025);
    bar.update(2048);
    bar.done();
    expect(frames).toEqual([
      `\rUploading [${'.'.repeat(30)}]   0%  0 B / 2.0 KB`,
      `\rUploading [${'#'.repeat(15)}${'.'.repeat(15)}]  50%  1.0 KB / 2.0 KB`,
      `\rUploading [${'#'.repeat(30)}] 100%  2.0 KB / 2.0 KB`,
      `\rUploading [${'#'.repeat(30)}] 100%  2.0 KB / 2.0 KB\n`,
    ]);
  });

  it('writes one line at the end elsewhere, saying how far an interrupted upload got', () => {
    const full: string[] = [];
    const a = createProgressBar({ label: 'Uploading', total: 3 * 1024 * 1024, sink: { isTTY: false, write: (t: string) => full.push(t) } });
    a.update(1024);
    a.update(3 * 1024 * 1024);
    a.done();
    a.done();
    expect(full).toEqual(['Uploading: 3.00 MB sent\n']);

    const cut: string[] = [];
    const b = createProgressBar({ label: 'Uploading', total: 4096, sink: { write: (t: string) => cut.push(t) } });
    b.update(1024);
    b.done();
    expect(cut).toEqual(['Uploading: 1.0 KB of 4.0 KB sent\n']);
  });
});
