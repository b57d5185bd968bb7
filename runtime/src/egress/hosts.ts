/**
 * @module egress/hosts
 * Host names as the allow-list compares them: lower case, one trailing dot ignored. An entry
 * `*.example.com` matches every name below example.com (any depth) but not example.com itself;
 * any other entry matches exactly. IP literals never match: apps name the hosts they call.
 * Each entry admits one port: the one written after it (`api.example.com:8443`), else 443.
 */
import { isIP } from 'node:net';

export const DEFAULT_PORT = 443;

export function normalizeHost(host: string): string {
  const h = host.toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** A URL hostname as a bare address when it is an IP literal (`[::1]` → `::1`), else null. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

export interface AllowEntry {
  /** The host pattern, normalized (`api.example.com`, `*.example.com`). */
  host: string;
  port: number;
  /** The entry as the metric label and messages show it: `host`, or `host:port` when a port is written. */
  label: string;
}

/**
 * Reads one allow-list entry, or null when it can admit nothing (a port that is not 1–65535).
 * Manifest validation (sandbox-lib `parseEgressHost`) is stricter; this reads what it is given.
 */
export function parseAllowEntry(raw: string): AllowEntry | null {
  const m = /^(.*):([0-9]+)$/.exec(raw);
  if (m === null) {
    const host = normalizeHost(raw);
    return { host, port: DEFAULT_PORT, label: host };
  }
  const port = Number(m[2]);
  if (!Number.isSafeInteger(port) || port < 1 || port > 65535) return null;
  const host = normalizeHost(m[1]!);
  return { host, port, label: port === DEFAULT_PORT ? host : `${host}:${port}` };
}

/** True when the entry's host pattern admits `host` (already normalized), on any port. */
export function hostMatches(entry: AllowEntry, host: string): boolean {
  if (entry.host.startsWith('*.')) {
    const suffix = entry.host.slice(1); // ".example.com"
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return entry.host === host;
}

/** The entries whose host pattern admits `host` (already normalized), whatever their port. */
export function entriesFor(host: string, allowList: readonly string[]): AllowEntry[] {
  const out: AllowEntry[] = [];
  for (const raw of allowList) {
    const entry = parseAllowEntry(raw);
    if (entry !== null && hostMatches(entry, host)) out.push(entry);
  }
  return out;
}

/** The label of the allow-list entry that admits `host` (already normalized) on `port`, or null. */
export function allowedBy(host: string, port: number, allowList: readonly string[]): string | null {
  return entriesFor(host, allowList).find((e) => e.port === port)?.label ?? null;
}
