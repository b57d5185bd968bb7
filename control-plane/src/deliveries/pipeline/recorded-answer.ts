/**
 * @module deliveries/pipeline/recorded-answer
 * What is kept of an app's answer for the Deliveries page and for replays: its text, at most
 * `RECORDED_ANSWER_BYTES` (an answer may be 1 MB; the page shows what a developer reads, and a
 * longer one is marked cut).
 */

export const RECORDED_ANSWER_BYTES = 16 * 1024;

export interface RecordedAnswer {
  text: string;
  truncated: boolean;
}

/**
 * @example recordedAnswer(new TextEncoder().encode('{"ok":true}')) // { text: '{"ok":true}', truncated: false }
 */
export function recordedAnswer(body: Uint8Array | null | undefined): RecordedAnswer | null {
  if (body === null || body === undefined) return null;
  const truncated = body.byteLength > RECORDED_ANSWER_BYTES;
  // A cut inside a multi-byte character decodes to U+FFFD: the page shows text, not bytes.
  return { text: new TextDecoder().decode(truncated ? body.subarray(0, RECORDED_ANSWER_BYTES) : body), truncated };
}
