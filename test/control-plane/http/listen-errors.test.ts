/**
 * A control plane whose port is taken says which setting to change: the operator port
 * (METRICS_PORT) and the API port (PORT) are named with their variable, not a bare EADDRINUSE.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../helpers/stack.ts';

let holder: Server;
let taken: number;
beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  taken = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
});

describe('a taken port', () => {
  it.each(['METRICS_PORT', 'PORT'])('%s: the start fails naming the variable and the port', async (variable) => {
    await expect(startStack({ env: { [variable]: String(taken) } })).rejects.toThrow(
      `Port ${taken} is already in use on 127.0.0.1:${taken} (${variable}): stop what listens there, or set ${variable} to a free port (0 picks one)`);
  });
});
