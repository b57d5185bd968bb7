/**
 * The world a fuzz run calls: the blocks suites' board world (a workspace, circles, a conversation,
 * the board app synced, installed and serving over HTTP), plus a message, a block and a spare API key,
 * so requests can name things that exist; and the credential of every security scheme.
 */
import { startBoardWorld, type BoardWorld } from '../control-plane/blocks/setup.ts';
import type { StackOptions } from '../helpers/stack.ts';
import type { FuzzTarget } from './openapi-fuzz.ts';

export async function startFuzzWorld(options: StackOptions = {}): Promise<{ world: BoardWorld; target: FuzzTarget }> {
  const world = await startBoardWorld(options);
  try {
    const client = world.ws.client;
    const message = await client.post(`/conversations/${world.conversationId}/messages`, { markdown: 'fuzz me' });
    const key = await client.post('/api-keys', { name: 'spare' });
    const block = await world.insert();
    const installToken = await world.installToken();
    // A drain to a loopback port nothing listens on: its test batch fails at once.
    const drain = await world.stack.v0(world.ws.apiKey).post(`/apps/${world.appId}/log-drains`, { url: 'http://127.0.0.1:9/drain' });
    const basic = `Basic ${Buffer.from(`${world.clientId}:${world.clientSecret}`).toString('base64')}`;
    const member = `Bearer ${world.ws.apiKey}`;
    const install = `Bearer ${installToken}`;
    const operatorToken = world.stack.config.operatorToken;
    const target: FuzzTarget = {
      url: world.stack.url,
      credentials: {
        member, tooling: member, toolingOrInstall: install, install, installOrInteraction: install, any: install, client: basic,
        ...(operatorToken === null ? {} : { operator: `Bearer ${operatorToken}` }),
      },
      ids: {
        circleId: [world.circleId, world.privateCircleId],
        conversationId: [world.conversationId],
        messageId: [message.body.message.id],
        memberId: [world.member.id, world.ws.owner.id],
        keyId: [key.body.key.id],
        appId: [world.appId], app_id: [world.appId],
        installId: [world.installId], install_id: [world.installId],
        blockId: [block.block?.id ?? block.id], block_id: [block.block?.id ?? block.id],
        workspaceId: [world.ws.workspace.id],
        drain_id: [drain.body.drain.id],
        target: ['production', 'preview'],
        // The storage tooling routes name the install's kind, not its id.
        install: ['workspace', 'dev'],
        key: ['API_URL', 'TOKEN'],
        // The board app's first version (synced by the world) and one past what a version column holds.
        version: ['1', '2147483648'],
      },
    };
    return { world, target };
  } catch (err) {
    await world.stop();
    throw err;
  }
}
