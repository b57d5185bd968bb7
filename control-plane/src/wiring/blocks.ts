/**
 * @module wiring/blocks
 * Wires the blocks features once: the interactive delivery engine (with its recorder and
 * metrics), block definitions, rendering, the app API service and the member's side. Holds no
 * logic of its own. `settled()` waits for background renders and writes the queued delivery
 * records (tests, shutdown).
 */
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { DeliveryTarget } from '../deliveries/targets/target.ts';
import { createInteractiveEngine, type InteractiveEngine } from '../deliveries/interactive/engine.ts';
import { createEngineMetrics } from '../deliveries/interactive/metrics.ts';
import { createDeliveryRecorder } from '../deliveries/interactive/recorder.ts';
import type { EventProducer } from '../workspace/events/index.ts';
import { createReachGuard } from '../apps/guards/index.ts';
import { createInteractionsService, type InteractionsService } from '../blocks/interactions/service.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import { createRenderer, type Renderer } from '../blocks/rendering/service.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import type { VersionValidators } from '../apps/versions/validators.ts';
import type { BlockView } from '../blocks/interactions/schemas.ts';
import type { Actor } from '../core/auth/actor.ts';
import { createBlockDefinitions } from '../blocks/definitions/definitions.ts';
import { insertBlockAsMember, type MemberInsertBody } from '../blocks/interactions/member-insert.ts';
import { createBlocksService, type BlocksService } from '../blocks/app-api/service.ts';

export interface BlocksFeatureDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  events: EventProducer;
  registry: Registry;
  /** Where deliveries go (the lifecycle's router: endpoint, development relay, runtime node). */
  target: DeliveryTarget;
  signingSecretsFor(app: { id: string; signing_secret_enc: string; previous_signing_secret_enc: string | null; previous_signing_secret_expires_at: Date | null }, now: number): string[];
  installConfigFor(install: { id: string; config_enc: string | null }): Record<string, unknown> | undefined;
  schemaValidators(appId: string, version: number): Promise<VersionValidators>;
}

/** The member's insert through the interface (`POST /client/v1/blocks`). */
export interface MemberBlocks {
  insert(actor: Actor, body: MemberInsertBody): Promise<{ block: BlockView }>;
}

export interface BlocksFeature {
  engine: InteractiveEngine;
  blocks: BlocksService;
  interactions: InteractionsService;
  members: MemberBlocks;
  renderer: Renderer;
  /** Resolves once no render is queued or running and every delivery record is written. */
  settled(): Promise<void>;
}

/**
 * @example
 * const blocks = createBlocksFeature({ db, kv, clock, logger, tokens, events, registry, target: lifecycle.targets.router, ...apps });
 * registerBlockRoutes(v0, blocks.blocks);
 */
export function createBlocksFeature(deps: BlocksFeatureDeps): BlocksFeature {
  const { db, clock, logger } = deps;
  const recorder = createDeliveryRecorder({ db, logger });
  const engine = createInteractiveEngine({
    clock, logger, tokens: deps.tokens, target: deps.target, recorder, metrics: createEngineMetrics(deps.registry),
    signingSecretsFor: deps.signingSecretsFor, installConfigFor: deps.installConfigFor,
  });
  const definitions = createBlockDefinitions({ db, schemaValidators: deps.schemaValidators });
  const renderer = createRenderer({ db, clock, logger, engine, definitions });
  const insertDeps = { db, clock, definitions, engine, reach: createReachGuard({ db }), events: deps.events };
  const blocks = createBlocksService({ ...insertDeps, renderer });
  const interactions = createInteractionsService({ db, kv: deps.kv, clock, logger, tokens: deps.tokens, engine, renderer, definitions });
  return {
    engine,
    blocks,
    interactions,
    members: {
      async insert(actor, body) {
        const record = await insertBlockAsMember(insertDeps, actor, body);
        return interactions.view(actor, record.id);
      },
    },
    renderer,
    async settled() {
      await renderer.settled();
      await recorder.flush();
    },
  };
}
