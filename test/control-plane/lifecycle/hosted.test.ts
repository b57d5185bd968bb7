/**
 * Lifecycle deliveries to a hosted app go through a real runtime node's internal API: the runtime
 * runs the app's bundle in an isolate, signs the delivery itself, and the guest's answer decides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, fixture, startRuntime, type TestRuntime } from '../../runtime/support/runtime.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { deliveriesOf, seedApp, seedInstall, seedWorkspace } from './fixtures.ts';

let rt: TestRuntime | undefined;
let stack: Stack;

beforeAll(async () => {
  rt = await startRuntime();
  stack = await startStack({ env: { RUNTIME_URL: rt.url, RUNTIME_SECRET: SECRET } });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await rt?.stop();
});

describe('hosted apps', () => {
  it('receive lifecycle deliveries through the runtime node, and a runtime that is away means waiting', async () => {
    const setup = await seedWorkspace(stack);
    const sha = await rt!.push(fixture('basic'));
    const app = await seedApp(stack, { workspaceId: setup.ws.workspace.id, ownerId: setup.ws.owner.id, hosting: 'platform', bundleSha256: sha, slug: 'basic' });
    const installId = await seedInstall(stack, { appId: app.id, workspaceId: setup.ws.workspace.id });
    const conv = (await setup.ws.client.post(`/circles/${setup.publicCircle}/conversations`, { title: 'Hosted' })).body.conversation.id;
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'to the isolate' });
    expect(await stack.controlPlane.deliveries.worker.drain()).toBe(1);
    const [delivered] = await deliveriesOf(stack, installId);
    expect(delivered).toMatchObject({ type: 'post.created', status: 'delivered', last_status: 200 });

    const stopping = rt!;
    rt = undefined;
    await stopping.stop();
    await setup.ws.client.post(`/conversations/${conv}/messages`, { markdown: 'runtime away' });
    await stack.controlPlane.deliveries.worker.drain();
    const waiting = (await deliveriesOf(stack, installId)).find((d) => d.status === 'pending');
    expect(waiting).toMatchObject({ type: 'reply.created', attempts: 1, last_error: expect.stringMatching(/^unavailable: no runtime node could take the delivery: /) });
  });
});
