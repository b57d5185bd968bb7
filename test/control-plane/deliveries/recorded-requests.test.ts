/**
 * What the Deliveries page keeps of interactive deliveries, written in one statement per batch
 * (deliveries/interactive/store.ts) or one by one: the request (`data`, `actor`, the version the
 * install ran) and the app's answer, cut at 16 KB and marked so, read back by the page's store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordInteractiveDeliveries, recordInteractiveDelivery, type InteractiveRecord } from '../../../control-plane/src/deliveries/interactive/store.ts';
import { requestRecord } from '../../../control-plane/src/deliveries/interactive/request-record.ts';
import { recordedAnswer, RECORDED_ANSWER_BYTES } from '../../../control-plane/src/deliveries/pipeline/recorded-answer.ts';
import { findDelivery, listAttempts } from '../../../control-plane/src/deliveries/page/store.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { seedApp, seedInstall } from '../credentials/fixtures.ts';

let stack: Stack;
let appId: string;
let installId: string;

beforeAll(async () => {
  stack = await startStack();
  const ws = await stack.createWorkspace();
  appId = (await seedApp(stack, { workspaceId: ws.workspace.id, ownerId: ws.owner.id })).id;
  installId = await seedInstall(stack, { appId, workspaceId: ws.workspace.id });
});
afterAll(() => stack?.stop());

const record = (id: string, answer: string | null, data: Record<string, unknown> = { block: { id: 'blk_1' } }): InteractiveRecord => ({
  id, appId, installId, type: 'block.action', startedAt: new Date(stack.clock.now()), durationMs: 3, status: answer === null ? null : 200,
  error: answer === null ? 'timeout: no answer' : null,
  request: requestRecord({ data, actor: { memberId: 'mem_1', name: 'Ada' } }, 2),
  response: answer === null ? null : recordedAnswer(new TextEncoder().encode(answer)),
});

describe('recorded interactive requests and answers', () => {
  it('are written in one batch and read back', async () => {
    const long = 'x'.repeat(RECORDED_ANSWER_BYTES + 10);
    await recordInteractiveDeliveries(stack.db, [record('dlv_batch_1', '{"state":{}}'), record('dlv_batch_2', long), record('dlv_batch_3', null)]);
    expect((await findDelivery(stack.db, appId, 'dlv_batch_1'))?.request).toEqual({ data: { block: { id: 'blk_1' } }, actor: { memberId: 'mem_1', name: 'Ada' }, version: 2 });
    expect(await listAttempts(stack.db, 'dlv_batch_1')).toMatchObject([{ status: 200, response: '{"state":{}}', response_truncated: false }]);
    const [cut] = await listAttempts(stack.db, 'dlv_batch_2');
    expect(cut).toMatchObject({ response_truncated: true });
    expect(cut!.response).toHaveLength(RECORDED_ANSWER_BYTES);
    expect(await listAttempts(stack.db, 'dlv_batch_3')).toMatchObject([{ status: null, response: null, error: 'timeout: no answer' }]);
  });

  it('are written one by one the same way', async () => {
    await recordInteractiveDelivery(stack.db, record('dlv_one_1', '{"ok":true}'));
    expect((await findDelivery(stack.db, appId, 'dlv_one_1'))?.request).toMatchObject({ version: 2 });
    expect(await listAttempts(stack.db, 'dlv_one_1')).toMatchObject([{ response: '{"ok":true}' }]);
  });

  it('keep no interaction token, only what it was bound to, and no request over 256 KB', () => {
    const token = `platint_${Buffer.from('{"alg":"ES256"}').toString('base64url')}.${Buffer.from('{"blk":"blk_9","sub":"ins_1"}').toString('base64url')}.sig`;
    expect(requestRecord({ data: { block: { id: 'blk_9' }, interactionToken: token }, actor: null }, 1))
      .toEqual({ data: { block: { id: 'blk_9' } }, actor: null, version: 1, interaction: { blockId: 'blk_9', invocationId: null } });
    expect(requestRecord({ data: { big: 'y'.repeat(300 * 1024) }, actor: null }, 1)).toBeNull();
    // Measured against the cap even when the engine tells the envelope's length (as large as the record, or larger).
    expect(requestRecord({ data: { big: 'y'.repeat(300 * 1024) }, actor: null }, 1, 300 * 1024 + 200)).toBeNull();
    expect(requestRecord({ data: { small: 'y' }, actor: null }, 1, 200)).toEqual({ data: { small: 'y' }, actor: null, version: 1 });
  });
});
