/**
 * A control plane and a real runtime node on loopback that know each other: the control plane
 * reads uploaded bundles' manifests through the node (RUNTIME_URL), the node resolves hosted apps
 * and fetches their bundles from the control plane (CONTROL_PLANE_URL). The control plane's port
 * is reserved first so each side can be configured with the other's address before it starts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createRuntimeNode, loadConfig, type RuntimeNode } from '@platform/runtime';
import { createTelemetry } from '@platform/runtime/telemetry';
import { startStack, type Stack, type StackOptions } from '../../helpers/stack.ts';

export interface StackWithRuntime {
  stack: Stack;
  runtimeUrl: string;
  node: RuntimeNode;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startStackWithRuntime(options: { runtimeEnv?: Record<string, string>; stack?: StackOptions } = {}): Promise<StackWithRuntime> {
  const secret = randomBytes(24).toString('base64url');
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'runtime-for-apps-'));
  const config = loadConfig({
    RUNTIME_SECRET: secret, RUNTIME_PORT: '0', RUNTIME_METRICS_PORT: '0', RUNTIME_HOST: '127.0.0.1', RUNTIME_DATA_DIR: dataDir, RUNTIME_WORKERS: '1',
    CONTROL_PLANE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'silent', ...options.runtimeEnv,
  });
  // As main.ts does: the node's export (when OTEL_* is set) is made and shut down by its starter.
  const telemetry = config.telemetry === null ? null : createTelemetry(config.telemetry, { serviceName: 'runtime' });
  const node = createRuntimeNode({ config, logger: pino({ level: 'silent' }), telemetry });
  const stopNode = async () => {
    await node.stop();
    await telemetry?.shutdown();
  };
  let runtimeUrl: string;
  try {
    runtimeUrl = (await node.start()).url;
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  let stack: Stack;
  try {
    stack = await startStack({
      ...options.stack,
      env: { PORT: String(port), RUNTIME_URL: runtimeUrl, RUNTIME_SECRET: secret, ...options.stack?.env },
    });
  } catch (err) {
    await stopNode();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    stack,
    runtimeUrl,
    node,
    async stop() {
      await stack.stop();
      await stopNode();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
