/**
 * Operator metrics (issue 13, item 5): delivery series carry the app's slug, so "which app's
 * deliveries fail" is one query, and the label is bounded (unknown apps fold into `_unknown`, slugs
 * past the cap into `_other`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppLabel } from '../../../control-plane/src/deliveries/pipeline/app-label.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { startBoardWorld } from '../blocks/setup.ts';
import { seedApp, seedInstall, seedWorkspace } from '../lifecycle/fixtures.ts';

const metricsOf = async (url: string) => (await fetch(url)).text();

describe('lifecycle delivery series by app', () => {
  let stack: Stack;
  let good: Receiver;
  let failing: Receiver;
  beforeAll(async () => {
    stack = await startStack();
    good = await startReceiver();
    failing = await startReceiver();
    failing.respond = () => 500;
  });
  afterAll(async () => {
    await stack?.stop();
    await good?.stop();
    await failing?.stop();
  });

  it('names the app whose deliveries fail', async () => {
    const setup = await seedWorkspace(stack);
    const owner = { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, events: ['post.created' as const] };
    const polls = await seedApp(stack, { ...owner, slug: 'polls', endpoint: good.url });
    const broken = await seedApp(stack, { ...owner, slug: 'broken-bot', endpoint: failing.url });
    for (const app of [polls, broken]) await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const conversation = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Metered' })).body.conversation.id;
    await setup.ws.client.post(`/conversations/${conversation}/messages`, { markdown: 'hello' });
    await stack.controlPlane.deliveries.worker.drain();

    const text = await metricsOf(stack.metricsUrl);
    expect(text).toMatch(/platform_lifecycle_attempts_total\{app="polls",outcome="delivered"\} 1/);
    expect(text).toMatch(/platform_lifecycle_attempts_total\{app="broken-bot",outcome="pending"\} 1/);
    expect(text).toMatch(/platform_lifecycle_attempt_seconds_count\{app="broken-bot"\} 1/);
    expect(text).not.toMatch(/app="polls",outcome="pending"/);
  });
});

describe('interactive delivery series by app', () => {
  it('carry the slug beside type and outcome', async () => {
    const w = await startBoardWorld();
    try {
      await w.insert();
      await w.settled();
      const text = await metricsOf(w.stack.metricsUrl);
      expect(text).toMatch(/platform_interactive_delivery_seconds_count\{app="board",type="block.insert",outcome="result"\} 1/);
    } finally {
      await w.stop();
    }
  });
});

describe('the app label is bounded', () => {
  it('folds unknown apps and slugs past the cap into fixed labels', () => {
    const label = createAppLabel(2);
    expect([label('polls'), label('board'), label('third'), label('polls'), label(null), label(undefined), label('')])
      .toEqual(['polls', 'board', '_other', 'polls', '_unknown', '_unknown', '_unknown']);
  });
});
