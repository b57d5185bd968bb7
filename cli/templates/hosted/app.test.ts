// The app called as the platform calls it, without a platform running (`npm test`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestPlatform } from '@platform/sdk/testing';
import app from './app.ts';

const platform = createTestPlatform({ app });

test('the block renders the name and counts waves', async () => {
  const block = { type: 'greeting', props: { name: 'Ada' }, state: { waves: 0 } };
  const render = await platform.deliver('block.render', { block });
  assert.equal(render.kind, 'answered');
  assert.match(JSON.stringify(render.kind === 'answered' && render.result.tree), /Hello, Ada!/);

  const wave = await platform.deliver('block.action', { block, action: { name: 'wave', args: {} } });
  assert.deepEqual(wave.kind === 'answered' && wave.result.state, { waves: 1 });
});

test('/hello posts a greeting block', async () => {
  const run = await platform.deliver('command.run', { command: 'hello', options: { name: 'Ada' } });
  assert.equal(run.kind, 'answered');
  assert.deepEqual(run.kind === 'answered' && run.result.block, { type: 'greeting', props: { name: 'Ada' } });
  assert.deepEqual(platform.calls, []);
});

test('the route greets', async () => {
  const response = await platform.request('/hello/ada');
  assert.deepEqual(await response.json(), { message: 'Hello, ada!' });
});
