/**
 * @module apps/log-drains/batch
 * A drain's batch: the stored lines after its cursor as tooling reads them (without the CPU profile,
 * which stays a download), platform credentials masked, cut at DRAIN_LIMITS' line count and at the
 * byte size of the body that is sent. The body is assembled from each line's own JSON, so its size
 * is known exactly before it is built.
 */
import type { LogLine } from '../logs/schemas.ts';

/** Lines tooling reads, without the profile link: what a drain receives. */
export type DrainLine = Omit<LogLine, 'profile'>;

/**
 * Credentials of this platform (install, interaction, member, deploy and agent tokens, signing
 * secrets), however they got into a line. Secret env values are already replaced on the node
 * (runtime/src/logs/redact.ts); these are the platform's own, which a guest may have been handed.
 * Their characters never include a JSON escape, so masking the serialized line is exact.
 */
const CREDENTIAL = /\b(?:plat(?:app|int|key|dep|agt)_[A-Za-z0-9._~-]{8,}|whsec_[A-Za-z0-9+/=]{16,})/g;

export function redactCredentials(text: string): string {
  return text.replace(CREDENTIAL, '[redacted]');
}

export interface PackedBatch {
  /** The lines sent, as JSON texts in order. */
  texts: string[];
  firstSeq: number;
  lastSeq: number;
  body: string;
}

/** The body's text with no lines: the envelope every batch of this drain carries. */
function envelope(drainId: string, appId: string, test: boolean): [string, string] {
  const text = JSON.stringify({ type: 'app.logs', drainId, appId, test, lines: [] });
  const at = text.lastIndexOf('[]');
  return [text.slice(0, at + 1), text.slice(at + 1)];
}

/**
 * The first batch of `lines` (oldest first, each with its `id` the stored seq): as many as fit in
 * `maxLines` and `maxBytes` of body. A line alone over `maxBytes` goes alone (the ingest caps keep a
 * line far below the default); null when `lines` is empty.
 */
export function packBatch(drainId: string, appId: string, lines: readonly DrainLine[], limits: { maxLines: number; maxBytes: number }, test = false): PackedBatch | null {
  if (lines.length === 0) return null;
  const [head, tail] = envelope(drainId, appId, test);
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const texts: string[] = [];
  let lastSeq = Number(lines[0]!.id);
  for (const line of lines.slice(0, limits.maxLines)) {
    const text = redactCredentials(JSON.stringify(line));
    const added = Buffer.byteLength(text) + (texts.length === 0 ? 0 : 1);
    if (texts.length > 0 && bytes + added > limits.maxBytes) break;
    bytes += added;
    texts.push(text);
    lastSeq = Number(line.id);
  }
  return { texts, firstSeq: Number(lines[0]!.id), lastSeq, body: `${head}${texts.join(',')}${tail}` };
}
