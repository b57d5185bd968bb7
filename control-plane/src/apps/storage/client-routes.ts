/**
 * @module apps/storage/client-routes
 * `/client/v1/storage`: the bytes and keys each app keeps in the workspace, and an admin's purge
 * of one app's data (owners and admins).
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import type { StorageAdmin } from './admin.ts';
import { StorageUsageList } from './schemas.ts';

const forbidden = { status: 403, description: 'PlatformApiForbiddenError (owners and admins only)' };

export function registerStorageClientRoutes(api: ClientApi, admin: StorageAdmin): void {
  api.route({
    operationId: 'listStorageUsage', method: 'get', path: '/storage', tag: 'installs', auth: 'member',
    summary: 'How much data each app keeps in your workspace (largest first)', status: 200, response: StorageUsageList, errors: [forbidden],
  }, async ({ auth }) => ({ items: await admin.usage(auth) }));

  api.route({
    operationId: 'purgeAppStorage', method: 'delete', path: '/storage/{appId}', tag: 'installs', auth: 'member',
    summary: 'Remove everything an app keeps in your workspace, now (installed or within its retention after an uninstall)',
    status: 204, errors: [forbidden],
  }, async ({ auth, params }) => { await admin.purge(auth, params.appId); });
}
