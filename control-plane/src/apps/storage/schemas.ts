/**
 * @module apps/storage/schemas
 * The admins' side of app storage in the client API (ours): how much each app keeps in the
 * workspace, and the purge. The apps' side is sandbox-lib's `Storage…Schema`.
 */
import { z } from 'zod';
import { Id, Timestamp } from '../../core/http/common.ts';

export const StorageUsage = z.object({
  appId: Id,
  appName: z.string(),
  keys: z.int().min(0),
  bytes: z.int().min(0).describe('UTF-8 bytes of the keys and compact JSON values the app keeps'),
  purgeAfter: Timestamp.nullable().describe('Set once the app is uninstalled: the data is removed then, unless it is installed again'),
}).meta({ id: 'StorageUsage' });

export const StorageUsageList = z.object({ items: z.array(StorageUsage) });
export type StorageUsage = z.output<typeof StorageUsage>;
