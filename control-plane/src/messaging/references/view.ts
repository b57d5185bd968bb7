/**
 * @module messaging/references/view
 * A link card as members see it (client API): the link, the app that claimed it, the access, and
 * for a grant the shared record's fields. A record's block shows its tree only; the action table
 * stays on the service like a block's.
 */
import { z } from 'zod';
import { treeForMember } from '@platform/sdk';
import type { LinkMatch } from './matching.ts';
import type { RecordRow } from './store.ts';

const ACCESS = ['granted', 'unauthorized', 'forbidden', 'notFound', 'unavailable'] as const;

export const ReferenceView = z.object({
  id: z.string(),
  externalId: z.string(),
  visibility: z.enum(['public', 'restricted']),
  title: z.string(),
  subtitle: z.string().optional(),
  icon: z.string().optional(),
  status: z.object({ state: z.string(), label: z.string() }).optional(),
  updatedAt: z.string().optional(),
  summary: z.string(),
  block: z.object({ tree: z.record(z.string(), z.unknown()) }).optional(),
  version: z.number().int().nullable().describe('The last version the app pushed; null when only resolved'),
  revision: z.number().int().min(1).describe('Increases with every change to the record (resolve, push, revalidate, an action\'s new tree); clicks on its block name the revision they saw'),
});

export const LinkCard = z.object({
  url: z.string(),
  app: z.object({ id: z.string(), name: z.string(), installId: z.string() }),
  kind: z.string(),
  patternId: z.string(),
  access: z.enum(ACCESS).describe('`unavailable`: not resolved now (nothing stored); asking again resolves it again'),
  reference: ReferenceView.nullable().describe('The shared record, for `granted` only'),
});
export type LinkCard = z.infer<typeof LinkCard>;

export const LinkCards = z.object({ items: z.array(LinkCard) });

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isTree = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record's fields as members see them (fields the app left out or pushed as null are absent);
 * with `viewer`, its block's tree without the parts whose audience leaves that member out.
 */
export function referenceView(record: RecordRow, viewer: string | null = null): z.infer<typeof ReferenceView> {
  const f = record.fields;
  const status = f.status as { state?: unknown; label?: unknown } | null | undefined;
  const block = f.block as { tree?: unknown } | null | undefined;
  const optional = {
    subtitle: str(f.subtitle),
    icon: str(f.icon),
    status: status != null && typeof status.state === 'string' && typeof status.label === 'string' ? { state: status.state, label: status.label } : undefined,
    updatedAt: str(f.updatedAt),
    block: isTree(block?.tree) ? { tree: viewer === null ? block.tree : treeForMember(block.tree, viewer) } : undefined,
  };
  return {
    id: record.id,
    externalId: record.external_id,
    visibility: f.visibility === 'public' ? 'public' : 'restricted',
    title: str(f.title) ?? '',
    summary: str(f.summary) ?? '',
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    version: record.version === null ? null : Number(record.version),
    revision: Number(record.revision),
  };
}

/** One link card as `viewer` (a member) sees it. */
export function cardOf(match: LinkMatch, access: (typeof ACCESS)[number], record: RecordRow | null, viewer: string): LinkCard {
  const { target } = match.install;
  return {
    url: match.url,
    app: { id: target.app.id, name: target.app.name, installId: target.installId },
    kind: match.kind,
    patternId: match.patternId,
    access,
    reference: record === null ? null : referenceView(record, viewer),
  };
}
