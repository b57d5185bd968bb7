/**
 * @module outbox/envelope
 * The body of a lifecycle delivery: the spec's envelope (`id` = `webhook-id`, `type` the event
 * name, `timestamp` when the event happened, the app and the version the install runs, the
 * install with its decrypted config, a fresh one-hour install token, the actor, `en`, `UTC`, and
 * the event's `data`).
 */

export interface EnvelopeInput {
  id: string;
  type: string;
  createdAt: Date;
  app: { id: string; slug: string; version: number };
  install: { id: string; workspaceId: string; kind: 'workspace' | 'dev'; config?: Record<string, unknown> | undefined };
  installToken: { token: string; expiresAt: number } | null;
  actor: { memberId: string; name: string } | null;
  data: Record<string, unknown>;
}

/**
 * Install events are written by the installs feature as `{ install: { id, workspaceId, kind } }`;
 * every payload object carries `version` (spec Events, rule 5), so the install subject gets the
 * event's time in milliseconds: it grows with each change of the install, which is all `version`
 * promises (a later event of the same subject never carries a smaller one).
 */
export function withSubjectVersion(type: string, data: Record<string, unknown>, createdAt: Date): Record<string, unknown> {
  if (!type.startsWith('app.')) return data;
  const install = data.install;
  if (install === null || typeof install !== 'object' || Array.isArray(install) || 'version' in install) return data;
  return { ...data, install: { ...install, version: createdAt.getTime() } };
}

/**
 * @example
 * const body = envelopeJson({ id: 'evt_…', type: 'post.created', createdAt, app, install, installToken, actor, data });
 */
export function envelopeJson(input: EnvelopeInput): string {
  const { config, ...install } = input.install;
  return JSON.stringify({
    id: input.id,
    type: input.type,
    timestamp: input.createdAt.toISOString(),
    app: input.app,
    install: config === undefined ? install : { ...install, config },
    ...(input.installToken === null ? {} : { installToken: { token: input.installToken.token, expiresAt: new Date(input.installToken.expiresAt).toISOString() } }),
    ...(input.actor === null ? {} : { actor: input.actor }),
    locale: 'en',
    timeZone: 'UTC',
    data: withSubjectVersion(input.type, input.data, input.createdAt),
  });
}
