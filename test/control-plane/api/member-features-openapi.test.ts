/**
 * The member features of issue 16 are in the client API's OpenAPI document: each route with its
 * operationId, member credential, request body where it has one, answer schema and the error
 * statuses it documents (docs/decisions/member-features.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
let doc: any;
beforeAll(async () => {
  stack = await startStack();
  doc = await (await stack.fetch('/client/v1/openapi.json')).json();
});
afterAll(async () => stack.stop());

const ROUTES: Array<{ method: string; path: string; operationId: string; status: string; errors: string[]; body: boolean }> = [
  { method: 'post', path: '/streams/{streamId}/unrevoke', operationId: 'unrevokeStream', status: '200', errors: ['401', '403', '404'], body: false },
  { method: 'post', path: '/notifications/{notificationId}/read', operationId: 'markNotificationRead', status: '200', errors: ['401', '404'], body: false },
  { method: 'post', path: '/notifications/read', operationId: 'markNotificationsRead', status: '200', errors: ['400', '401', '404', '413'], body: true },
  { method: 'patch', path: '/memories/{memoryId}', operationId: 'editMemory', status: '200', errors: ['400', '401', '403', '404', '413'], body: true },
  { method: 'delete', path: '/memories/{memoryId}', operationId: 'deleteMemory', status: '204', errors: ['401', '403', '404'], body: false },
  { method: 'post', path: '/invocations/{invocationId}/share', operationId: 'shareInvocationAnswer', status: '200', errors: ['401', '403', '404', '409'], body: false },
  { method: 'post', path: '/invocations/{invocationId}/dismiss', operationId: 'dismissInvocationAnswer', status: '200', errors: ['401', '404', '409'], body: false },
  {
    method: 'post', path: '/messages/{messageId}/references/{referenceId}/click', operationId: 'clickReferenceBlock', status: '200',
    errors: ['400', '401', '404', '409', '413'], body: true,
  },
];

describe('member features in /client/v1/openapi.json', () => {
  it.each(ROUTES)('$method $path', (route) => {
    const op = doc.paths[route.path]?.[route.method];
    expect(op, `${route.method} ${route.path}`).toBeDefined();
    expect(op.operationId).toBe(route.operationId);
    expect(op.security).toEqual([{ member: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([route.status, ...route.errors]));
    expect(op.requestBody !== undefined).toBe(route.body);
  });

  it('the inbox lists readAt and unreadCount; memories editedAt and editedBy; cards their revision; runs sharedAt and dismissedAt', () => {
    /** The answer schema of an operation, its references resolved (the document has no cycles on these paths). */
    const answer = (path: string, method = 'get'): string => {
      const expand = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(expand);
        if (value === null || typeof value !== 'object') return value;
        const ref = (value as { $ref?: string }).$ref;
        if (ref !== undefined) return expand(doc.components.schemas[ref.split('/').pop()!]);
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
      };
      return JSON.stringify(expand(doc.paths[path][method].responses['200'].content['application/json'].schema));
    };
    for (const field of ['"readAt"', '"unreadCount"']) expect(answer('/notifications')).toContain(field);
    for (const field of ['"editedAt"', '"editedBy"']) expect(answer('/memories')).toContain(field);
    expect(answer('/messages/{messageId}/references')).toContain('"revision"');
    for (const field of ['"sharedAt"', '"dismissedAt"']) expect(answer('/invocations/{invocationId}')).toContain(field);
  });
});
