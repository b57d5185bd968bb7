// Card actions in the authoring API: `defineReference({ actions })` runs a member's click in the
// block of a card of its kind (`block.action` with `data.block.reference`, as the control plane
// sends it: docs/decisions/member-features.md). The handler sees the card's object and the
// button's args; a draft tree is rendered with its action table; `deferred()` is a 202; unknown
// kinds and actions are 404s; definitions are checked.
import { describe, expect, it } from 'vitest';
import { deferred, defineApp, defineReference, interactiveResultSchemas, ui, ENV_KEYS, type ReferenceActionContext } from '@platform/sdk';
import { validateTree } from '../../../sandbox-lib/src/catalog/index.ts';
import { captureLogger, envelope, NOW_MS, SECRET, signedRequest } from './helpers.ts';

const ENV = { [ENV_KEYS.signingSecret]: SECRET };
const URL_42 = 'https://tracker.example.com/acme/issues/42';

function trackerApp(seen: ReferenceActionContext[] = []) {
  const issue = defineReference({
    kind: 'issue', title: 'Issue', hasBlock: true,
    patterns: { issue: 'https://tracker.example.com/:org/issues/:id' },
    resolve: ({ params }) => ({ access: 'granted', externalId: params.id!, title: `Issue ${params.id}`, summary: 'Open' }),
    actions: {
      close: (ctx) => {
        seen.push(ctx);
        return {
          tree: ui.block({ summary: `Issue ${ctx.reference.externalId} closed` }, [
            ui.header({ title: `Closed (${String(ctx.args.reason)})` }),
            ui.actions([ui.button({ label: 'Reopen', action: 'reopen' })]),
          ]),
          notice: { tone: 'success', text: 'Closed' },
        };
      },
      later: () => deferred(),
      quiet: () => undefined,
    },
  });
  return defineApp({ name: 'Tracker', slug: 'tracker', hosting: 'self', endpoint: { url: 'https://tracker.example.com/platform' }, references: [issue] },
    { logger: captureLogger(), now: () => NOW_MS });
}

const click = (name: string, args: Record<string, unknown> = {}, kind = 'issue') => ({
  block: { id: 'ref_1', type: kind, props: {}, state: {}, revision: 9, version: 0, reference: { kind, externalId: '42', url: URL_42 } },
  action: { name, args }, tallies: {}, invocationId: 'inv_1', interactionToken: 'platint_1',
});

async function deliver(app: ReturnType<typeof trackerApp>, data: unknown) {
  const response = await app.fetch(await signedRequest(envelope('block.action', data)), ENV);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('a click in a card of a kind with actions', () => {
  it('runs the action with the card\'s object and args; a draft tree is rendered with its action table', async () => {
    const seen: ReferenceActionContext[] = [];
    const { status, body } = await deliver(trackerApp(seen), click('close', { reason: 'done' }));
    expect(status).toBe(200);
    expect(seen[0]).toMatchObject({
      reference: { kind: 'issue', externalId: '42', url: URL_42 }, action: { name: 'close', args: { reason: 'done' } }, args: { reason: 'done' },
      invocationId: 'inv_1', revision: 9,
    });
    expect(body.notice).toEqual({ tone: 'success', text: 'Closed' });
    expect(body.tree.attrs.summary).toBe('Issue 42 closed');
    expect(body.actions).toEqual({ a0: { name: 'reopen' } });
    expect(validateTree(body.tree, body.actions)).toEqual({ valid: true });
    expect(interactiveResultSchemas['block.action'].safeParse(body).success).toBe(true);
  });

  it('deferred() answers 202 with no body; nothing answers an empty result', async () => {
    expect(await deliver(trackerApp(), click('later'))).toEqual({ status: 202, body: undefined });
    expect(await deliver(trackerApp(), click('quiet'))).toEqual({ status: 200, body: {} });
  });

  it('an action the kind does not have, or a kind the app does not have, is a 404', async () => {
    const unknownAction = await deliver(trackerApp(), click('nope'));
    expect(unknownAction.status).toBe(404);
    expect(unknownAction.body).toMatchObject({ error: 'unknown-action' });
    const unknownKind = await deliver(trackerApp(), click('close', {}, 'ticket'));
    expect(unknownKind.status).toBe(404);
    expect(unknownKind.body).toMatchObject({ error: 'unknown-action' });
  });
});

describe('defining card actions', () => {
  const base = { kind: 'issue', title: 'Issue', patterns: { issue: 'https://t.example.com/:id' }, resolve: () => ({ access: 'notFound' as const }) };
  it.each([
    ['without hasBlock', { ...base, actions: { close: () => undefined } }, /hasBlock/],
    ['with a bad action name', { ...base, hasBlock: true, actions: { 'Close!': () => undefined } }, /action names/],
    ['with an action that is not a function', { ...base, hasBlock: true, actions: { close: 'no' } }, /function/],
  ])('refuses a kind %s', (_name, config, message) => {
    expect(() => defineReference(config as never)).toThrow(message);
  });

  it('a kind with blocks and no actions is fine, and its manifest does not change', () => {
    const plain = defineReference({ ...base, hasBlock: true });
    const withActions = defineReference({ ...base, hasBlock: true, actions: { close: () => undefined } });
    expect(withActions.manifest).toEqual(plain.manifest);
  });
});
