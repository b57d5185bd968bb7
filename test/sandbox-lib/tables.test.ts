// The spec's scope and event tables as data, and the scopes a manifest's pieces need.
import { describe, expect, it } from 'vitest';
import { EVENTS, EVENT_TYPES, SCOPES, SCOPE_NAMES, eventScope, isEventType, isScope, requiredScopes } from '@platform/sdk';

describe('scopes', () => {
  it('are the ten of the spec, each saying what it allows', () => {
    expect(SCOPE_NAMES).toEqual([
      'conversations:read', 'decisions:read', 'calls:read', 'replies:write', 'notifications:write',
      'blocks:write', 'references:write', 'search:write', 'memories:write', 'decisions:write',
    ]);
    expect(Object.keys(SCOPES)).toEqual(SCOPE_NAMES);
    for (const scope of SCOPE_NAMES) expect(SCOPES[scope].allows.length).toBeGreaterThan(0);
    expect(SCOPES['decisions:write'].neededBy).toEqual([]);
    expect(isScope('blocks:write')).toBe(true);
    expect(isScope('toString')).toBe(false);
  });
});

describe('events', () => {
  it.each([
    ...['post.created', 'reply.created', 'app.mentioned', 'reference.created', 'reference.removed', 'message.filed', 'conversation.updated', 'conversation.agreed'].map((e) => [e, 'conversations:read']),
    ['decision.published', 'decisions:read'], ['decision.updated', 'decisions:read'], ['call.recapReady', 'calls:read'],
    ...['app.installed', 'app.uninstalled', 'app.reconsentRequired', 'block.created', 'block.removed'].map((e) => [e, null]),
  ])('%s needs %s', (event, scope) => {
    expect(isEventType(event)).toBe(true);
    expect(eventScope(event as keyof typeof EVENTS)).toBe(scope);
  });

  it('lists exactly the events of the spec table', () => {
    expect(EVENT_TYPES).toHaveLength(16);
    expect(isEventType('constructor')).toBe(false);
  });

  it('every read scope names the events that need it', () => {
    for (const event of EVENT_TYPES) {
      const scope = EVENTS[event];
      if (scope) expect(SCOPES[scope].neededBy).toContain(event);
    }
  });
});

describe('requiredScopes', () => {
  it('unions action scopes, event read scopes and conversations:read for message actions, in table order', () => {
    expect(requiredScopes({
      blocks: [{ type: 'p', actions: [{ name: 'a', scopes: ['search:write', 'blocks:write'] }, { name: 'b', scopes: ['blocks:write'] }] }],
      messageActions: [{}],
      events: ['call.recapReady', 'app.installed', 'post.created'],
    })).toEqual(['conversations:read', 'calls:read', 'blocks:write', 'search:write']);
    expect(requiredScopes({})).toEqual([]);
  });
});
