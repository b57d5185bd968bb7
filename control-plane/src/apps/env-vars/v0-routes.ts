/**
 * @module apps/env-vars/v0-routes
 * `/v0/apps/{app_id}/env/{target}`: list, `PUT …/{key}` to set, `DELETE …/{key}` to delete.
 * Credentials: tooling (member API key of the app's owner or a workspace admin, a deploy token for
 * the app, an agent builder token for an app the member owns); production needs production access.
 */
import { parseWith } from '../../core/http/read-json.ts';
import type { V0Api } from '../../core/http/v0-api.ts';
import { EnvKeyParams, EnvTargetParams, EnvVarListSchema, EnvVarSchema, EnvVarSetSchema } from './schemas.ts';
import type { EnvVarsService } from './service.ts';

const errors = [
  { status: 403, description: 'PlatformAppDeployTargetForbiddenError: a preview-only credential asked for production' },
  { status: 404, description: 'PlatformAppNotFoundError: no such app, or the caller may not deploy it' },
];

export function registerEnvVarV0Routes(api: V0Api, env: EnvVarsService): void {
  api.route({
    operationId: 'listEnvVars', method: 'get', path: '/apps/{app_id}/env/{target}', tag: 'tooling', auth: 'tooling',
    summary: 'Environment variables of a target (`preview` or `production`); secret values are never shown',
    status: 200, response: EnvVarListSchema, errors,
  }, async ({ auth, params }) => env.list(auth, params.app_id, parseWith(EnvTargetParams, params).target));

  api.route({
    operationId: 'setEnvVar', method: 'put', path: '/apps/{app_id}/env/{target}/{key}', tag: 'tooling', auth: 'tooling',
    summary: 'Set a variable (values at most 5 KB, 128 variables per environment)', body: EnvVarSetSchema,
    status: 200, response: EnvVarSchema,
    errors: [...errors, { status: 409, description: 'PlatformApiConflictError: the environment already holds 128 variables' }],
  }, async ({ auth, params, body }) => {
    const p = parseWith(EnvKeyParams, params);
    return env.set(auth, params.app_id, p.target, p.key, body);
  });

  api.route({
    operationId: 'deleteEnvVar', method: 'delete', path: '/apps/{app_id}/env/{target}/{key}', tag: 'tooling', auth: 'tooling',
    summary: 'Delete a variable', status: 204, errors,
  }, async ({ auth, params }) => {
    const p = parseWith(EnvKeyParams, params);
    await env.remove(auth, params.app_id, p.target, p.key);
  });
}
