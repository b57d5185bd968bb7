/**
 * `startTwin(stack)`: a second control plane beside a stack's, as another replica runs one: the same
 * database and configuration (secrets included), a data directory of its own (replicas share no
 * disk), and its own connection to the same Redis keys (the in-process store when the stack has no
 * Redis). Its clock is the stack's unless one is given, so a test can move one replica's time alone.
 *
 *   const twin = await startTwin(stack);
 *   await fetch(`${twin.url}/internal/v1/bundles/${sha256}`, …);
 *   await twin.stop();
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createControlPlane, createRedisKv, type ControlPlane, type ControlPlaneDeps, type Kv, type ManualClock } from '@platform/control-plane';
import type { Stack } from './stack.ts';

export interface Twin {
  url: string;
  controlPlane: ControlPlane;
  kv: Kv;
  clock: ManualClock;
  stop(): Promise<void>;
}

export interface TwinOptions {
  clock?: ManualClock;
  deliveries?: ControlPlaneDeps['deliveries'];
  /** Fills the twin's data directory before it starts (an old data directory, say). */
  prepareDataDir?: (dir: string) => Promise<void>;
}

export async function startTwin(stack: Stack, options: TwinOptions = {}): Promise<Twin> {
  const clock = options.clock ?? stack.clock;
  const dataDir = await mkdtemp(join(tmpdir(), 'platform-twin-'));
  await options.prepareDataDir?.(dataDir);
  const config = { ...stack.config, dataDir };
  const kv = stack.kvPrefix === null ? stack.kv : await createRedisKv({ url: stack.config.redisUrl!, clock, prefix: stack.kvPrefix });
  const controlPlane = createControlPlane({ config, logger: stack.logger, db: stack.db, kv, clock, ...(options.deliveries === undefined ? {} : { deliveries: options.deliveries }) });
  try {
    const { url } = await controlPlane.start();
    return {
      url, controlPlane, kv, clock,
      async stop() {
        await controlPlane.stop(1_000);
        if (kv !== stack.kv) await kv.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (kv !== stack.kv) await kv.close();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}
