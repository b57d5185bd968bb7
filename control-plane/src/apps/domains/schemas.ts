/**
 * @module apps/domains/schemas
 * Wire shapes of an app's verified domains.
 */
import { z } from 'zod';
import { Timestamp } from '../../core/http/common.ts';

export const Domain = z
  .object({
    domain: z.string(),
    record: z.object({
      type: z.literal('TXT'),
      name: z.string().describe('Where to publish the record: `_platform-verify.<domain>`'),
      value: z.string().describe('The record\'s exact text'),
    }),
    verified: z.boolean(),
    verifiedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'AppDomain' });
export type Domain = z.output<typeof Domain>;

export const AddDomainBody = z.strictObject({ domain: z.string().min(1).max(253) });
export const DomainResponse = z.object({ domain: Domain });
export const DomainList = z.object({ items: z.array(Domain) });
