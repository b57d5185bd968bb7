/**
 * @module deliveries/initiative/v0-routes
 * Tooling endpoints over schedules and queues (ours, docs/decisions/queues.md): list an app's
 * schedules, fire one now, see its queues and dead letters, send to an install's queue. Credentials:
 * tooling (member API key of the app's owner or a workspace admin, deploy token, agent builder token).
 */
import type { V0Api } from '../../core/http/v0-api.ts';
import { QueueOverviewSchema, ScheduleListSchema, ScheduleRunRequestSchema, ScheduleRunResponseSchema, ToolingQueueSendSchema } from './schemas.ts';
import { QueueSendResponseSchema } from '@platform/sdk';
import type { InitiativeService } from './service.ts';

const notFound = { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not manage it' };
const noInstall = { status: 404, description: 'PlatformAppInstallNotFoundError: no active install named, or no development install' };

export function registerInitiativeV0Routes(api: V0Api, service: InitiativeService): void {
  api.route({
    operationId: 'listAppSchedules', method: 'get', path: '/apps/{app_id}/schedules', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s schedules per install: next and last firing, the last firing\'s outcome (ours)',
    status: 200, response: ScheduleListSchema, errors: [notFound],
  }, async ({ auth, params }) => service.schedules(auth, params.app_id));

  api.route({
    operationId: 'runAppSchedule', method: 'post', path: '/apps/{app_id}/schedules/{name}/run', tag: 'tooling', auth: 'tooling',
    summary: 'Fire a schedule now for one install (default: the development install) (ours)',
    description: 'A `schedule.fired` delivery with `dueAt` = now and `missed` 0, beside the schedule\'s own firings (it does not move them).',
    body: ScheduleRunRequestSchema, status: 200, response: ScheduleRunResponseSchema,
    errors: [notFound, noInstall, { status: 404, description: 'PlatformApiNotFoundError: the install has no schedule of that name' }],
  }, async ({ auth, params, body }) => service.runSchedule(auth, params.app_id, params.name, body.installId));

  api.route({
    operationId: 'getAppQueues', method: 'get', path: '/apps/{app_id}/queue', tag: 'tooling', auth: 'tooling',
    summary: 'The app\'s queue per install: depth, age of the oldest message, dead letters (ours)',
    description: 'Dead letters (newest 20) are sent again from the Deliveries page (`redeliver`).',
    status: 200, response: QueueOverviewSchema, errors: [notFound],
  }, async ({ auth, params }) => service.queues(auth, params.app_id));

  api.route({
    operationId: 'sendAppQueueMessages', method: 'post', path: '/apps/{app_id}/queue/messages', tag: 'tooling', auth: 'tooling',
    summary: 'Send messages to an install\'s queue as its author (default: the development install) (ours)',
    description: 'As `POST /v0/queue/messages` with the install\'s token: the same limits and answers.',
    body: ToolingQueueSendSchema, status: 200, response: QueueSendResponseSchema, errors: [notFound, noInstall],
  }, async ({ auth, params, body }) => service.send(auth, params.app_id, body));
}
