/**
 * @module catalog/rules/audience
 * `audience` limits who sees a part of a block: `{ members: [memberId, …] }`, 1 to 50 members.
 * It sits on flow elements (and on a Button or Menu of the root Actions), one level only, never
 * inside a Form (the Form itself carries it). Every node type accepts the attribute syntactically,
 * so that a misplaced audience gets one of the spec's messages rather than "unknown attribute".
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, OURS, SPEC, componentName } from '../kit/messages.ts';
import type { NodeView } from '../kit/spec.ts';
import { identifier, list, record, required } from '../kit/attr-types.ts';
import { fail, type Frame, type WalkState } from '../kit/state.ts';

/** Containers whose children are flow elements (the root only for its body). */
const FLOW_PARENTS = new Set(['uiBlock', 'uiSection', 'uiTab', 'uiColumn', 'uiStack', 'uiForm']);

const membersCheck = record({
  members: required(list(identifier(/^\S{1,128}$/, 'a member id'), {
    min: 1,
    max: LIMITS.blockTree.audienceMembers,
    count: COUNTS.audience,
    few: OURS.audienceEmpty,
  })),
});

/** Whether a node of `type` under `parent` (under `grandparent`) may carry an audience. */
function carries(type: string, isFlow: (type: string) => boolean, parent: Frame | undefined, grandparent: Frame | undefined): boolean {
  if (!parent) return false;
  if ((type === 'uiButton' || type === 'uiMenu') && parent.type === 'uiActions') return grandparent?.type === 'uiBlock';
  if (parent.type === 'uiBlock' && type === 'uiActions') return false;
  return isFlow(type) && FLOW_PARENTS.has(parent.type);
}

/** Types that carry an audience in some place: told to move it; the others, to use a flow element. */
function carriesSomewhere(type: string, isFlow: (type: string) => boolean): boolean {
  return isFlow(type) || type === 'uiButton' || type === 'uiMenu';
}

/** Checks the `audience` of `node` (present, not undefined) against where the node sits. */
export function checkAudience(node: NodeView, state: WalkState, isFlow: (type: string) => boolean): void {
  const frames = state.frames;
  if (frames.some((f) => f.attrs.audience !== undefined)) fail(SPEC.audienceNested(node.component), node.path);
  if (frames.some((f) => f.type === 'uiForm')) fail(SPEC.audienceInForm(node.component), node.path);
  const last = frames.length - 1;
  if (!carries(node.type, isFlow, frames[last], frames[last - 1])) {
    if (carriesSomewhere(node.type, isFlow)) {
      for (let i = last; i >= 0; i--) {
        if (carries(frames[i]!.type, isFlow, frames[i - 1], frames[i - 2])) fail(SPEC.audienceHere(node.component, componentName(frames[i]!.type)), node.path);
      }
    }
    fail(SPEC.audienceNever(node.component), node.path);
  }
  const at = { component: node.component, name: 'audience', path: [...node.path, 'attrs', 'audience'], state };
  membersCheck(node.attrs.audience, at);
  const members = (node.attrs.audience as { members: string[] }).members;
  if (new Set(members).size !== members.length) fail(OURS.duplicateAudienceMember, [...at.path, 'members']);
}
