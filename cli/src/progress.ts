/**
 * @module cli/progress
 * An upload progress bar on stderr, and the request body that drives it. The body is a stream
 * pulled by the HTTP client one chunk at a time (`highWaterMark: 0`: nothing is read ahead), so
 * the bytes counted are the bytes handed to the connection, not a guess. On a terminal the bar is
 * redrawn in place when its whole percentage changes; elsewhere (CI logs, pipes) a single line
 * is written when the upload ends.
 */
import { formatBytes } from './output.ts';

export interface ProgressSink {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

export interface ProgressBar {
  update(sent: number): void;
  done(): void;
}

const BAR_WIDTH = 30;

/**
 * @example
 * const bar = createProgressBar({ label: 'Uploading', total: 1_000_000 });
 * bar.update(500_000); // Uploading [###############...............]  50%  488.3 KB / 976.6 KB
 * bar.done();
 */
export function createProgressBar(options: { label: string; total: number; sink?: ProgressSink }): ProgressBar {
  const sink = options.sink ?? process.stderr;
  const total = Math.max(options.total, 1);
  let shown = -1;
  let sent = 0;
  let finished = false;

  const line = () => {
    const ratio = Math.min(sent / total, 1);
    const filled = Math.round(ratio * BAR_WIDTH);
    return `${options.label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%  ${formatBytes(sent)} / ${formatBytes(options.total)}`;
  };

  return {
    update(value) {
      sent = value;
      if (!sink.isTTY || finished) return;
      const percent = Math.floor((Math.min(sent, total) / total) * 100);
      if (percent === shown) return;
      shown = percent;
      sink.write(`\r${line()}`);
    },
    /** Ends the bar where it stands (an upload refused midway shows how far it got). */
    done() {
      if (finished) return;
      finished = true;
      if (sink.isTTY) sink.write(`\r${line()}\n`);
      else sink.write(`${options.label}: ${formatBytes(sent)}${sent < options.total ? ` of ${formatBytes(options.total)}` : ''} sent\n`);
    },
  };
}

/**
 * A stream of `bytes` in chunks, reporting how many bytes were taken after each pull.
 * @example const body = countingStream(code, (sent) => bar.update(sent));
 */
export function countingStream(bytes: Uint8Array, onProgress: (sent: number) => void, chunkBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) {
        controller.close();
        return;
      }
      const chunk = bytes.subarray(offset, offset + chunkBytes);
      offset += chunk.byteLength;
      controller.enqueue(chunk);
      onProgress(offset);
    },
  }, { highWaterMark: 0 });
}
