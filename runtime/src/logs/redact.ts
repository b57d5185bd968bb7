/**
 * @module logs/redact
 * Secret env values replaced in text before it leaves the node. The worker redacts what the guest
 * logs (sandbox/log-buffer.ts); the supervisor redacts its own lines about a request (blocked
 * egress names the URL the guest asked for, which may carry a secret) with the same rule.
 */

/** Values shorter than this are not redacted: replacing `1` or `on` everywhere would garble lines. */
export const MIN_REDACTED_CHARS = 4;

export type Redactor = (text: string) => string;

const identity: Redactor = (text) => text;

/**
 * @example createRedactor(['s3cr3t-value'])('key=s3cr3t-value') // 'key=[redacted]'
 */
export function createRedactor(values: readonly string[]): Redactor {
  // Longest first, so that a secret containing another is replaced whole.
  const secrets = values.filter((s) => s.length >= MIN_REDACTED_CHARS).sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return identity;
  return (text) => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  };
}
