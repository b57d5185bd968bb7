/**
 * @module catalog/rules/text
 * Runs of text: the text nodes inside titles, texts, callouts, quotes, footers and rich text.
 * A text node is `{ type: "text", text, marks? }`, never empty, never with attrs or content; its
 * marks come from the short list its container allows, each at most once, and struck text is no link.
 */
import { LIMITS } from '../../limits/limits.ts';
import { OURS, SPEC, componentName } from '../kit/messages.ts';
import type { ContentModel } from '../kit/spec.ts';
import type { PathSegment } from '../kit/types.ts';
import { isRecord } from '../kit/attr-types.ts';
import { graphemeLength, hasVisibleText } from '../kit/measure.ts';
import { fail, type WalkState } from '../kit/state.ts';
import { httpsProblem } from './urls.ts';

type Inline = Extract<ContentModel, { kind: 'inline' }>;

const TEXT_KEYS = new Set(['type', 'text', 'marks']);

/** Message when a run's links are not allowed here (a linked header's or item's title), else undefined. */
export function linkBan(state: WalkState): string | undefined {
  // The run's container is the top frame; the header or item holding that title is below it.
  const owner = state.frames[state.frames.length - 2];
  if (owner?.attrs.href === undefined) return undefined;
  if (owner.type === 'uiHeader') return SPEC.linkedHeaderLinks;
  if (owner.type === 'uiItem') return SPEC.linkedItemLinks;
  return undefined;
}

function checkMarks(marks: unknown, model: Inline, parent: string, path: PathSegment[], banned: string | undefined): void {
  if (marks === undefined) return;
  if (!Array.isArray(marks)) fail(OURS.marksNotList, [...path, 'marks']);
  const seen = new Set<string>();
  for (let i = 0; i < marks.length; i++) {
    const mark: unknown = marks[i];
    const at = [...path, 'marks', i];
    const type = isRecord(mark) ? mark.type : undefined;
    const wellFormed = isRecord(mark) && typeof type === 'string' && Object.keys(mark).every((k) => k === 'type' || (k === 'attrs' && type === 'link') || mark[k] === undefined);
    if (!wellFormed || seen.has(type) || !(model.marks as readonly string[]).includes(type)) fail(SPEC.formatting('text', parent), at);
    seen.add(type);
    if (type === 'link') {
      if (banned) fail(banned, at);
      const href = isRecord(mark.attrs) ? mark.attrs.href : undefined;
      const extra = isRecord(mark.attrs) && Object.keys(mark.attrs).some((k) => k !== 'href' && (mark.attrs as Record<string, unknown>)[k] !== undefined);
      const problem = extra ? 'type' : httpsProblem(href);
      if (problem === 'length') fail(SPEC.tooLong(LIMITS.blockTree.urlLength), [...at, 'attrs', 'href']);
      if (problem === 'type') fail(OURS.httpsUrl('text', `marks.${i}.attrs.href`), [...at, 'attrs', 'href']);
    }
  }
  if (seen.has('strike') && seen.has('link')) fail(SPEC.struckLink, [...path, 'marks']);
}

/**
 * Checks the text nodes of an inline container (`type` at `path`), counting their text toward the
 * container's cap and the block's. `isKnown` tells an unknown node type from a misplaced one.
 */
export function checkInline(content: readonly unknown[], model: Inline, type: string, path: PathSegment[], state: WalkState, isKnown: (type: string) => boolean): void {
  const parent = componentName(type);
  const banned = linkBan(state);
  let visible = false;
  for (let i = 0; i < content.length; i++) {
    const child: unknown = content[i];
    const at = [...path, 'content', i];
    if (!isRecord(child) || typeof child.type !== 'string') fail(OURS.notANode, at);
    if (child.type !== 'text') fail(isKnown(child.type) ? SPEC.cantHold(parent, componentName(child.type)) : OURS.unknownType(child.type), at);
    for (const key of Object.keys(child)) {
      if (child[key] === undefined) continue;
      if (key === 'attrs' || key === 'content') fail(SPEC.textAttrsOrContent, at);
      if (!TEXT_KEYS.has(key)) fail(OURS.unknownField('text', key), at);
    }
    if (typeof child.text !== 'string') fail(OURS.textNotString, at);
    if (child.text === '') fail(SPEC.textEmpty, at);
    checkMarks(child.marks, model, parent, at, banned);
    visible ||= hasVisibleText(child.text);
    state.addOwnedText(graphemeLength(child.text));
  }
  if (visible) return;
  if (model.empty === 'label') fail(SPEC.labelInvisible, path);
  if (model.empty === 'code') fail(SPEC.codeBlockEmpty, path);
  if (model.empty === 'needs') fail(SPEC.needs(parent, 'text'), path);
}
