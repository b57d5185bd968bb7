/**
 * @module deliveries/page/client-routes
 * The Deliveries page of the client API: `/apps/{appId}/deliveries…`.
 */
import type { ClientApi } from '../../core/http/client-api.ts';
import { DeliveryDetail, DeliveryListQuery, DeliveryPage, DeliveryResponse, InstallDeliveryStates, ResumeBody, ResumeResponse } from './schemas.ts';
import type { DeliveriesService } from './service.ts';

const conflict = { status: 409, description: 'PlatformApiConflictError: the delivery or install is not in a state that allows it' };

export function registerDeliveryPageClientRoutes(api: ClientApi, deliveries: DeliveriesService): void {
  api.route({
    operationId: 'listDeliveries', method: 'get', path: '/apps/{appId}/deliveries', tag: 'deliveries', auth: 'member',
    summary: 'Deliveries of an app you manage, newest first, filtered by install, class, type, outcome and time',
    query: DeliveryListQuery, status: 200, response: DeliveryPage,
  }, async ({ auth, params, query }) => deliveries.list(auth, params.appId, {
    installId: query.installId, class: query.class, type: query.type, outcomes: query.outcome,
    since: query.since === undefined ? undefined : new Date(query.since), until: query.until === undefined ? undefined : new Date(query.until),
    limit: query.limit, cursor: query.cursor,
  }));

  api.route({
    operationId: 'getDelivery', method: 'get', path: '/apps/{appId}/deliveries/{deliveryId}', tag: 'deliveries', auth: 'member',
    summary: 'One delivery with every attempt (time, status, duration, error) and its payload', status: 200, response: DeliveryDetail,
  }, async ({ auth, params }) => deliveries.get(auth, params.appId, params.deliveryId));

  api.route({
    operationId: 'redeliver', method: 'post', path: '/apps/{appId}/deliveries/{deliveryId}/redeliver', tag: 'deliveries', auth: 'member',
    summary: 'Send a lifecycle delivery again now (same webhook-id, fresh retry schedule)', status: 200, response: DeliveryResponse, errors: [conflict],
  }, async ({ auth, params }) => deliveries.redeliver(auth, params.appId, params.deliveryId));

  api.route({
    operationId: 'listInstallDeliveryStates', method: 'get', path: '/apps/{appId}/delivery-installs', tag: 'deliveries', auth: 'member',
    summary: 'Each install of the app: whether its deliveries are paused (and why) and since when they fail', status: 200, response: InstallDeliveryStates,
  }, async ({ auth, params }) => deliveries.installs(auth, params.appId));

  api.route({
    operationId: 'resumeDeliveries', method: 'post', path: '/apps/{appId}/delivery-installs/resume', tag: 'deliveries', auth: 'member',
    summary: 'Resume the paused deliveries of an install: everything that waited is due now, with a fresh retry schedule',
    body: ResumeBody, status: 200, response: ResumeResponse, errors: [conflict],
  }, async ({ auth, params, body }) => deliveries.resume(auth, params.appId, body.installId));
}
