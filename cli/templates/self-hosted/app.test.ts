// The app called as the platform calls it (deliveries signed with a test secret), without a
// platform or a server running (`npm test`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestPlatform } from '@platform/sdk/testing';
import app from './app.ts';

const platform = createTestPlatform({ app });

test('/note posts a note block that renders its text', async () => {
  const run = await platform.deliver('command.run', { command: 'note', options: { text: 'Ship it' } });
  assert.equal(run.kind, 'answered');
  assert.deepEqual(run.kind === 'answered' && run.result.block, { type: 'note', props: { text: 'Ship it' } });

  const block = { type: 'note', props: { text: 'Ship it' }, state: { done: false } };
  const render = await platform.deliver('block.render', { block });
  assert.match(JSON.stringify(render.kind === 'answered' && render.result.tree), /Ship it/);

  const done = await platform.deliver('block.action', { block, action: { name: 'done', args: {} } });
  assert.deepEqual(done.kind === 'answered' && done.result.state, { done: true });
});

test('a delivery signed with another secret is refused', async () => {
  const forged = createTestPlatform({ app: (request) => app.fetch(request, { PLATFORM_SIGNING_SECRET: platform.signingSecret }) });
  const render = await forged.deliver('block.render', { block: { type: 'note', props: { text: 'x' }, state: { done: false } } });
  assert.equal(render.status, 401);
});

test('the health route answers', async () => {
  assert.equal(await (await platform.request('/health')).text(), 'ok');
});
