/**
 * @module egress/hosts
 * Host names as the allow-list compares them: lower case, one trailing dot ignored. An entry
 * `*.example.com` matches every name below example.com (any depth) but not example.com itself;
 * any other entry matches exactly. IP literals never match: apps name the hosts they call.
 */
import { isIP } from 'node:net';

export function normalizeHost(host: string): string {
  const h = host.toLowerCase();
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** A URL hostname as a bare address when it is an IP literal (`[::1]` → `::1`), else null. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/** The allow-list entry that admits `host` (already normalized), or null. */
export function allowedBy(host: string, allowList: readonly string[]): string | null {
  for (const raw of allowList) {
    const entry = normalizeHost(raw);
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(1); // ".example.com"
      if (host.endsWith(suffix) && host.length > suffix.length) return entry;
    } else if (entry === host) return entry;
  }
  return null;
}
