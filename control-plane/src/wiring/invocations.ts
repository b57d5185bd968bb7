/**
 * @module wiring/invocations
 * Wires the invocations service from what app.ts and `/v0` already hold: the blocks feature's
 * engine (deliveries, records) and its insert path's pieces. Holds no logic.
 */
import type { BlocksFeature } from './blocks.ts';
import { createBlockDefinitions } from '../blocks/definitions/definitions.ts';
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { EventProducer } from '../workspace/events/index.ts';
import { createReachGuard } from '../apps/guards/index.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import type { VersionValidators } from '../apps/versions/validators.ts';
import { createInvocationsService, type InvocationsService } from '../blocks/invocations/service.ts';

export interface InvocationsFeatureDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  events: EventProducer;
  blocks: Pick<BlocksFeature, 'engine'>;
  apps: { schemaValidators(appId: string, version: number): Promise<VersionValidators> };
}

export function createInvocations(deps: InvocationsFeatureDeps): InvocationsService {
  return createInvocationsService({
    db: deps.db, clock: deps.clock, tokens: deps.tokens, events: deps.events, engine: deps.blocks.engine,
    definitions: createBlockDefinitions({ db: deps.db, schemaValidators: deps.apps.schemaValidators }), reach: createReachGuard({ db: deps.db }),
  });
}
