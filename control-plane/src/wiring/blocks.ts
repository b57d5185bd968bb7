/**
 * @module wiring/blocks
 * Wires the blocks area once: block definitions, rendering, the blocks API for apps, the member's
 * side (interactions and the member's insert), trees tried against a dev install (the playground),
 * commands and message actions. Every delivery goes
 * through the deliveries area's interactive engine. Holds no logic of its own. `settled()` waits
 * for background renders and writes the queued delivery records (tests, shutdown).
 */
import type { Clock } from '../core/clock/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { Kv } from '../core/kv/kv.ts';
import type { Logger } from '../core/log/logger.ts';
import { createReachGuard } from '../apps/guards/index.ts';
import type { ImageCopier } from '../apps/assets/copy.ts';
import type { TokenService } from '../apps/tokens/service.ts';
import type { VersionValidators } from '../apps/versions/validators.ts';
import { createAppApiService, type BlocksService } from '../blocks/app-api/service.ts';
import { createBlockDefinitions } from '../blocks/definitions/definitions.ts';
import { createMemberBlocks, type MemberBlocks } from '../blocks/interactions/member-insert.ts';
import { createInteractionsService, type InteractionsService } from '../blocks/interactions/service.ts';
import { createInvocationsService, type InvocationsService } from '../blocks/invocations/service.ts';
import { createPlaygroundBlocks, type PlaygroundBlocks } from '../blocks/playground/service.ts';
import { removeBlocksOfMessages } from '../blocks/records/removal.ts';
import { createResultWriter } from '../blocks/records/result-writer.ts';
import { createRenderer, type Renderer } from '../blocks/rendering/service.ts';
import type { InteractiveEngine } from '../deliveries/interactive/engine.ts';
import type { UnitOfWork } from '../core/unit-of-work/unit-of-work.ts';
import type { EventProducer } from '../workspace/events/index.ts';
import type { MemberLinks } from '../messaging/references/links.ts';
import type { RemoveCarried } from '../workspace/messages/delete.ts';

export interface BlocksAreaDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  events: EventProducer;
  /** The deliveries area's interactive engine, and the flush of its delivery records. */
  interactive: { engine: InteractiveEngine; flush(): Promise<void> };
  schemaValidators(appId: string, version: number): Promise<VersionValidators>;
  /** The messaging area's link cards, for clicks in a card's block. */
  links: Pick<MemberLinks, 'storedCard'>;
  /** The apps area's image copier: every tree's images are copied before it is stored. */
  images: ImageCopier;
  /** The apps area's units of work: what an action's handler staged, applied with its result. */
  unitOfWork: UnitOfWork;
}

export interface BlocksArea {
  blocks: BlocksService;
  interactions: InteractionsService;
  members: MemberBlocks;
  playground: PlaygroundBlocks;
  invocations: InvocationsService;
  renderer: Renderer;
  /** Resolves once no render is queued or running and every delivery record is written. */
  settled(): Promise<void>;
}

/**
 * What goes away with deleted messages: the blocks they carry (`block.removed`), for the workspace
 * area's message deletion.
 */
export function removeCarriedBlocks(events: EventProducer): RemoveCarried {
  return (tx, input) => removeBlocksOfMessages(tx, events, input);
}

/**
 * @example
 * const blocks = createBlocksArea({ db, kv, clock, logger, tokens, events, interactive: deliveries.interactive, schemaValidators });
 * registerBlockV0Routes(v0, blocks.blocks);
 */
export function createBlocksArea(deps: BlocksAreaDeps): BlocksArea {
  const { db, clock, logger } = deps;
  const engine = deps.interactive.engine;
  const definitions = createBlockDefinitions({ db, schemaValidators: deps.schemaValidators });
  const { images } = deps;
  const renderer = createRenderer({ db, clock, logger, engine, definitions, images });
  const insertDeps = { db, clock, definitions, engine, reach: createReachGuard({ db }), events: deps.events, images };
  const results = createResultWriter({ db });
  const interactions = createInteractionsService({ db, kv: deps.kv, clock, logger, tokens: deps.tokens, engine, renderer, definitions, results, links: deps.links, images, unitOfWork: deps.unitOfWork });
  return {
    blocks: createAppApiService({ ...insertDeps, renderer }),
    interactions,
    members: createMemberBlocks(insertDeps, interactions),
    playground: createPlaygroundBlocks(insertDeps, interactions),
    invocations: createInvocationsService({ ...insertDeps, tokens: deps.tokens }),
    renderer,
    async settled() {
      await results.idle();
      await renderer.settled();
      await deps.interactive.flush();
    },
  };
}
