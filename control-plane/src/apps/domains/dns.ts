/**
 * @module apps/domains/dns
 * TXT lookups through `node:dns`'s `Resolver`, aimed at the servers of config `DNS_SERVERS` (the
 * system's resolvers when unset). A name with no TXT record reads as an empty list; a resolver that
 * cannot answer is an error, so "not published" and "could not check" stay apart.
 */
import { Resolver } from 'node:dns/promises';

export interface TxtResolver {
  /** The TXT records at `name`, each joined from its character strings; `[]` when there are none. */
  resolveTxt(name: string): Promise<string[]>;
}

export class DnsUnavailableError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'DnsUnavailableError';
    this.code = code;
  }
}

// Answers that mean "nothing published there", as opposed to a resolver that failed.
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * @example
 * const dns = createTxtResolver({ servers: ['127.0.0.1:5353'] });
 * await dns.resolveTxt('_platform-verify.example.com'); // ['platform-verify=…']
 */
export function createTxtResolver(options: { servers?: readonly string[]; timeoutMs?: number; tries?: number } = {}): TxtResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers !== undefined && options.servers.length > 0) resolver.setServers([...options.servers]);
  return {
    async resolveTxt(name) {
      try {
        const records = await resolver.resolveTxt(name);
        return records.map((chunks) => chunks.join(''));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== undefined && ABSENT.has(code)) return [];
        throw new DnsUnavailableError(`TXT lookup of ${name} failed: ${code ?? (err as Error).message}`, code);
      }
    },
  };
}
