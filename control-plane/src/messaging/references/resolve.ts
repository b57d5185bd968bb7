/**
 * @module messaging/references/resolve
 * Turns matched links into cards (spec, ReferenceResolution): a link resolved before reads its
 * stored answer (a grant's shared record, or a denial); the others, and links whose record the app
 * asked to revalidate, are sent to their app as `reference.resolve` (at most 20 items per
 * delivery, answered in the same order, one delivery per install and chunk, installs in parallel).
 *
 * The answer is checked as a whole: the result schema (engine), the same number of items, and
 * every granted `block` against the catalog like any tree. A delivery that fails, times out or
 * answers outside those rules makes each of its links `unavailable`, as does an item answered
 * `unavailable`: nothing is stored for them, so they are resolved again on their next view. A
 * revalidated record whose new resolve is unavailable keeps showing its last good fields.
 *
 * A resolve races the app's pushes: it takes a revision mark before it is sent, and its fields are
 * stored only if the record was not written since (store.ts `storeGranted`); otherwise the newer
 * push stands and the card shows it. Two items of one answer naming one object: the later one's
 * fields are stored.
 */
import { LIMITS, type ReferenceResolution } from '@platform/sdk';
import type { Clock } from '../../core/clock/clock.ts';
import type { Db } from '../../core/db/db.ts';
import type { InteractiveEngine } from '../../deliveries/interactive/engine.ts';
import type { Logger } from '../../core/log/logger.ts';
import type { CopyBudget, ImageCopier } from '../../apps/assets/copy.ts';
import { checkTree, treeProblem } from '../../deliveries/interactive/tree-check.ts';
import { copyReferenceImages } from './images.ts';
import type { LinkMatch } from './matching.ts';
import { cachedLinks, revisionMark, storeDenied, storeGranted, type RecordRow } from './store.ts';
import { cardOf, type LinkCard } from './view.ts';

export interface ReferenceResolver {
  /** One card per match, in order. */
  cards(actor: { memberId: string; name: string }, matches: readonly LinkMatch[]): Promise<LinkCard[]>;
}

type Outcome = { kind: 'record'; record: RecordRow } | { kind: 'denied'; access: 'unauthorized' | 'forbidden' | 'notFound' } | { kind: 'unavailable' };

/**
 * A denial is kept this long, then the link is resolved again: a member may sign in to the app or
 * gain access meanwhile, and a denial has no externalId the app could revalidate.
 */
export const DENIAL_TTL_MS = 60 * 60 * 1000;

const key = (installId: string, kind: string, url: string) => `${installId}\n${kind}\n${url}`;

/** What is wrong with a resolve answer beyond its schema, or null. */
export function resolveProblem(sent: number, items: readonly ReferenceResolution[]): string | null {
  if (items.length !== sent) return `The answer has ${items.length} items for ${sent} links; answer one resolution per link, in order`;
  for (const [i, item] of items.entries()) {
    if (item.access !== 'granted' || item.block === undefined) continue;
    const checked = checkTree(item.block.tree, item.block.actions);
    if (!checked.ok) return `items.${i}.block: ${treeProblem(checked)}`;
  }
  return null;
}

/**
 * Copies the images of every granted item (their trees' and `icon` URLs) in place, side by side;
 * the first that fails is the answer's problem.
 */
async function copyGrantedImages(images: ImageCopier, items: ReferenceResolution[], budget: CopyBudget): Promise<string | null> {
  const copies = await Promise.all(items.map((item) => (item.access === 'granted' ? copyReferenceImages(images, item, budget) : null)));
  for (const [i, copied] of copies.entries()) {
    if (copied === null) continue;
    if (!copied.ok) return `items.${i}.${copied.path.join('.')}: ${copied.message}`;
    items[i] = copied.fields;
  }
  return null;
}

/** The granted resolution as a record stores it: without `url`, `access` and `externalId`. */
function recordFields(item: Extract<ReferenceResolution, { access: 'granted' }>): Record<string, unknown> {
  const { url: _url, access: _access, externalId: _externalId, ...fields } = item as Record<string, unknown>;
  return fields;
}

/**
 * @example
 * const resolver = createReferenceResolver({ db, clock, logger, engine });
 * const cards = await resolver.cards({ memberId, name }, matchLinks(installs, urls).filter(isMatch));
 */
export function createReferenceResolver(deps: { db: Db; clock: Clock; logger: Logger; engine: InteractiveEngine; images: ImageCopier }): ReferenceResolver {
  const { db } = deps;

  async function deliver(actor: { memberId: string; name: string }, batch: readonly LinkMatch[]): Promise<Outcome[]> {
    const target = batch[0]!.install.target;
    const mark = await revisionMark(db);
    const outcome = await deps.engine.deliver({
      type: 'reference.resolve', target, actor,
      data: { items: batch.map((m) => ({ kind: m.kind, patternId: m.patternId, params: m.params, url: m.url })) },
      check: async (result, budget) => resolveProblem(batch.length, result.items) ?? copyGrantedImages(deps.images, result.items, { withinMs: budget.remainingMs }),
    });
    if (outcome.kind !== 'result') return batch.map(() => ({ kind: 'unavailable' }));
    const at = new Date(deps.clock.now());
    const items = outcome.result.items;
    const outcomes: Outcome[] = items.map(() => ({ kind: 'unavailable' }));
    const grants = [...items.entries()].flatMap(([i, item]) => (item.access === 'granted' ? [{ i, item, key: `${batch[i]!.kind}\n${item.externalId}` }] : []));
    // Two items naming one object: the later item's fields are the ones stored. Applied items go
    // first, so the others only link to the record it wrote.
    const last = new Map(grants.map((g) => [g.key, g.i]));
    const ordered = [...grants.filter((g) => last.get(g.key) === g.i), ...grants.filter((g) => last.get(g.key) !== g.i)];
    for (const { i, item, key } of ordered) {
      const match = batch[i]!;
      const stored = await storeGranted(db, {
        installId: target.installId, kind: match.kind, url: match.url, at, externalId: item.externalId, fields: recordFields(item), mark, apply: last.get(key) === i,
      });
      outcomes[i] = { kind: 'record', record: stored.record };
    }
    for (const [i, item] of items.entries()) {
      if (item.access === 'granted' || item.access === 'unavailable') continue;
      await storeDenied(db, { installId: target.installId, kind: batch[i]!.kind, url: batch[i]!.url, access: item.access, at });
      outcomes[i] = { kind: 'denied', access: item.access };
    }
    return outcomes;
  }

  return {
    async cards(actor, matches) {
      const now = deps.clock.now();
      const stored = new Map((await cachedLinks(db, matches.map((m) => ({ installId: m.install.target.installId, kind: m.kind, url: m.url }))))
        .map((row) => [key(row.install_id, row.kind, row.url), row]));
      const outcomes = new Map<string, Outcome>();
      const toResolve = new Map<string, LinkMatch[]>();
      for (const m of matches) {
        const k = key(m.install.target.installId, m.kind, m.url);
        if (outcomes.has(k)) continue;
        const row = stored.get(k);
        if (row !== undefined && row.record === null && now - row.resolved_at.getTime() < DENIAL_TTL_MS) outcomes.set(k, { kind: 'denied', access: row.access as 'unauthorized' | 'forbidden' | 'notFound' });
        else if (row?.record != null && !row.record.stale) outcomes.set(k, { kind: 'record', record: row.record });
        else if (!toResolve.get(m.install.target.installId)?.some((other) => other.kind === m.kind && other.url === m.url)) {
          toResolve.set(m.install.target.installId, [...(toResolve.get(m.install.target.installId) ?? []), m]);
        }
      }
      const batches: LinkMatch[][] = [];
      for (const list of toResolve.values()) {
        for (let i = 0; i < list.length; i += LIMITS.references.urlsResolvedPerDelivery) batches.push(list.slice(i, i + LIMITS.references.urlsResolvedPerDelivery));
      }
      const answered = await Promise.all(batches.map((batch) => deliver(actor, batch)));
      for (const [b, batch] of batches.entries()) {
        for (const [i, m] of batch.entries()) {
          const k = key(m.install.target.installId, m.kind, m.url);
          const outcome = answered[b]![i]!;
          const previous = stored.get(k)?.record;
          // A stale record whose new resolve is unavailable keeps its last good fields.
          outcomes.set(k, outcome.kind === 'unavailable' && previous != null ? { kind: 'record', record: previous } : outcome);
        }
      }
      // One record, one face: every card of a record shows its latest stored fields (answers come
      // after stored reads, and in answer order).
      const latest = new Map<string, RecordRow>();
      for (const outcome of outcomes.values()) if (outcome.kind === 'record') latest.set(outcome.record.id, outcome.record);
      return matches.map((m) => {
        const outcome = outcomes.get(key(m.install.target.installId, m.kind, m.url))!;
        if (outcome.kind === 'record') return cardOf(m, 'granted', latest.get(outcome.record.id)!, actor.memberId);
        return cardOf(m, outcome.kind === 'denied' ? outcome.access : 'unavailable', null, actor.memberId);
      });
    },
  };
}
