/**
 * @module apps/domains/service
 * Verified domains of an app. Adding a domain answers a TXT record to publish at
 * `_platform-verify.<domain>`; verifying looks it up through the configured resolver. A verified
 * domain covers its subdomains (an MCP host under it needs nothing more).
 */
import { randomBytes } from 'node:crypto';
import { PlatformError, hostCovers, invalidRequest, isHostname, isPublicSuffix } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import { iso, isoOrNull } from '../../core/http/common.ts';
import { managedApp, type MemberRef } from '../apps/access.ts';
import { DnsUnavailableError, type TxtResolver } from './dns.ts';
import type { Domain } from './schemas.ts';
import * as store from './store.ts';

export const VERIFY_LABEL = '_platform-verify';
export const VERIFY_PREFIX = 'platform-verify=';

export const verifyRecordName = (domain: string): string => `${VERIFY_LABEL}.${domain}`;

const view = (row: store.DomainRow): Domain => ({
  domain: row.domain,
  record: { type: 'TXT', name: verifyRecordName(row.domain), value: VERIFY_PREFIX + row.token },
  verified: row.verified_at !== null,
  verifiedAt: isoOrNull(row.verified_at),
  createdAt: iso(row.created_at),
});

const domainNotFound = () => new PlatformError('PlatformApiNotFoundError', 'The app has not added that domain', { path: ['domain'] });

export type DomainsService = ReturnType<typeof createDomainsService>;

export function createDomainsService(deps: { db: Db; clock: Clock; dns: TxtResolver; reservedDomains: readonly string[] }) {
  const { db } = deps;

  /** Normalizes and judges a domain someone wants to claim. */
  const checkDomain = (input: string): string => {
    const domain = input.trim().toLowerCase().replace(/\.$/, '');
    const problem = !isHostname(domain) ? 'Not a host name (lowercase labels, at least two, IDNs in punycode)'
      : isPublicSuffix(domain) ? 'A public suffix is shared by many owners and cannot be verified'
      : deps.reservedDomains.some((r) => hostCovers(r, domain) || hostCovers(domain, r)) ? 'That domain belongs to the service'
      : null;
    if (problem !== null) throw invalidRequest([{ path: ['domain'], message: problem }]);
    return domain;
  };

  return {
    /** Adds a domain (idempotent: adding it again answers the same record). */
    async add(member: MemberRef, appId: string, input: string): Promise<Domain> {
      const app = await managedApp(db, member, appId);
      const domain = checkDomain(input);
      const row = await store.upsertDomain(db, {
        app_id: app.id, domain, token: randomBytes(24).toString('base64url'), verified_at: null, created_at: new Date(deps.clock.now()),
      });
      return view(row);
    },

    async list(member: MemberRef, appId: string): Promise<Domain[]> {
      const app = await managedApp(db, member, appId);
      return (await store.listDomains(db, app.id)).map(view);
    },

    async remove(member: MemberRef, appId: string, domain: string): Promise<void> {
      const app = await managedApp(db, member, appId);
      if (!(await store.deleteDomain(db, app.id, domain.toLowerCase()))) throw domainNotFound();
    },

    /** Looks the TXT record up; marks the domain verified when one record is exactly the token. */
    async verify(member: MemberRef, appId: string, domain: string): Promise<Domain> {
      const app = await managedApp(db, member, appId);
      const row = await store.findDomain(db, app.id, domain.toLowerCase());
      if (row === undefined) throw domainNotFound();
      if (row.verified_at !== null) return view(row);
      const name = verifyRecordName(row.domain);
      let records: string[];
      try {
        records = await deps.dns.resolveTxt(name);
      } catch (err) {
        if (err instanceof DnsUnavailableError) {
          throw new PlatformError('PlatformApiServiceUnavailableError', 'The DNS lookup failed; try again shortly', { cause: err });
        }
        throw err;
      }
      if (!records.includes(VERIFY_PREFIX + row.token)) {
        throw new PlatformError('PlatformApiConflictError',
          records.length === 0 ? `No TXT record at ${name} yet` : `The TXT records at ${name} do not hold this domain's token`,
          { path: ['domain'] });
      }
      await store.markVerified(db, app.id, row.domain, new Date(deps.clock.now()));
      return view((await store.findDomain(db, app.id, row.domain))!);
    },
  };
}
