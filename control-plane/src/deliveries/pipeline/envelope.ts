/**
 * @module deliveries/pipeline/envelope
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
 * @example
 * const body = envelopeJson({ id: 'evt_…', type: 'post.created', createdAt, app, install, installToken, actor, data });
 */
export function envelopeJson(input: EnvelopeInput): string {
  return JSON.stringify(envelopeObject(input));
}

/** The envelope before serializing (`envelopeJson` is its JSON). */
export function envelopeObject(input: EnvelopeInput): Record<string, unknown> {
  const { config, ...install } = input.install;
  return {
    id: input.id,
    type: input.type,
    timestamp: input.createdAt.toISOString(),
    app: input.app,
    install: config === undefined ? install : { ...install, config },
    ...(input.installToken === null ? {} : { installToken: { token: input.installToken.token, expiresAt: new Date(input.installToken.expiresAt).toISOString() } }),
    ...(input.actor === null ? {} : { actor: input.actor }),
    locale: 'en',
    timeZone: 'UTC',
    // Every writer puts `version` into each payload object (apps/installs/outbox.ts, events/).
    data: input.data,
  };
}
