/**
 * @module manifest/access-widening
 * Versioning rule 8: what a new version adds to the access an admin approved. A non-empty answer
 * keeps installs on their current version until an admin approves, and sends
 * `app.reconsentRequired`. Layout, titles, descriptions, read-only actions, a narrower message
 * action context and commands never widen.
 */
import type { ActionHints, Manifest, MessageActionContext } from './model/schemas.ts';

export type AccessWideningKind =
  | 'scope' | 'egressHost' | 'domain' | 'event'
  | 'blockAction' | 'messageAction' | 'messageActionContext' | 'mcpUrl' | 'mcpTool';

export interface AccessWidening {
  readonly kind: AccessWideningKind;
  /** What was added, in words an admin reads on the consent screen. */
  readonly detail: string;
}

/** The pieces of a manifest access widening reads; a parsed `Manifest` has all of them. */
type Pieces = Pick<Manifest, 'scopes' | 'egressHosts' | 'domains' | 'events' | 'blocks' | 'messageActions' | 'mcp'>;

/** 0: read-only; 1: changes things; 2: destructive. A later version widens when the level rises. */
const reach = (hints: ActionHints): number => (hints.destructive ? 2 : hints.readOnly ? 0 : 1);
const REACH_WORDS = ['read-only', 'not read-only', 'destructive'] as const;

const CONTEXT_REACH: Record<MessageActionContext, number> = { message: 0, thread: 1, conversation: 2 };

/**
 * What `next` adds to the access of `previous` (empty: not widening).
 * @example
 * accessWidening(v1, { ...v1, scopes: [...v1.scopes, 'blocks:write'] })
 * // [{ kind: 'scope', detail: 'blocks:write' }]
 */
export function accessWidening(previous: Pieces, next: Pieces): AccessWidening[] {
  const added: AccessWidening[] = [];
  const newItems = (kind: AccessWideningKind, before: readonly string[] = [], after: readonly string[] = []) => {
    const known = new Set(before);
    for (const item of new Set(after)) if (!known.has(item)) added.push({ kind, detail: item });
  };
  newItems('scope', previous.scopes, next.scopes);
  // Outbound hosts compare as written. Validation leaves one spelling per host pattern and port
  // (lower case, `:443` never written, no leading zeros), so a new string is new access: a known
  // host on a new port (`api.example.com` → `api.example.com:8443`) widens, and so does going
  // back to 443. (A host under a wildcard already listed counts as new too: the admin sees it.)
  newItems('egressHost', previous.egressHosts, next.egressHosts);
  newItems('domain', previous.domains, next.domains);
  newItems('event', previous.events, next.events);

  const before = new Map<string, number>();
  for (const block of previous.blocks ?? []) for (const action of block.actions ?? []) before.set(`${block.type}/${action.name}`, reach(action.hints));
  for (const block of next.blocks ?? []) {
    for (const action of block.actions ?? []) {
      const level = reach(action.hints);
      const key = `${block.type}/${action.name}`;
      if (level > (before.get(key) ?? 0)) added.push({ kind: 'blockAction', detail: `${key} (${REACH_WORDS[level]})` });
    }
  }

  const contexts = new Map((previous.messageActions ?? []).map((a) => [a.id, CONTEXT_REACH[a.context ?? 'message']]));
  for (const action of next.messageActions ?? []) {
    const was = contexts.get(action.id);
    const context = action.context ?? 'message';
    if (was === undefined) added.push({ kind: 'messageAction', detail: `${action.id} (${context})` });
    else if (CONTEXT_REACH[context] > was) added.push({ kind: 'messageActionContext', detail: `${action.id} (${context})` });
  }

  if (next.mcp && next.mcp.url !== previous.mcp?.url) added.push({ kind: 'mcpUrl', detail: next.mcp.url });
  const tools = new Map((previous.mcp?.tools ?? []).map((tool) => [tool.name, reach(tool.hints)]));
  for (const tool of next.mcp?.tools ?? []) {
    const level = reach(tool.hints);
    if (level > (tools.get(tool.name) ?? 0)) added.push({ kind: 'mcpTool', detail: `${tool.name} (${REACH_WORDS[level]})` });
  }
  return added;
}
