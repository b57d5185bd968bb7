/**
 * @module wiring/v0-deps
 * What `/v0` features are built from. One object, created once in app.ts; features take what they
 * need from it.
 */
import type { Clock } from '../core/clock/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { ClientServices } from './workspace.ts';
import type { Secrets } from '../core/crypto/secrets.ts';
import type { Db } from '../core/db/db.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import type { CiIdentitiesService } from '../apps/ci-identities/service.ts';
import type { AppFeatures } from './apps.ts';
import type { BlocksFeature } from './blocks.ts';
import type { EventProducer } from '../workspace/events/index.ts';

export interface V0Deps {
  config: Config;
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  secrets: Secrets;
  services: ClientServices;
  tokens: TokenService;
  ciIdentities: CiIdentitiesService;
  /** Apps, versions, env vars, dev apps and installs (wiring/apps.ts). */
  apps: AppFeatures;
  /** The blocks API and the interactive delivery engine (wiring/blocks.ts). */
  blocks: BlocksFeature;
  /** Lifecycle events recorded in the transaction of their cause; `committed()` wakes the delivery loops. */
  events: EventProducer;
}
