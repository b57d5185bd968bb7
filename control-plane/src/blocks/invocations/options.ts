/**
 * @module blocks/invocations/options
 * A member's command options checked against the command's definition in the version the install
 * runs (spec rule 3: "`options` holds only options the member filled in, already checked against
 * the manifest"). An option left out, `null` or a blank string is not filled in; a required one
 * must be. Each value must fit its type; `member` and `circle` values name a member of the
 * workspace and a circle the member sees, and reach the app with their names (OptionValue).
 */
import { invalidRequest, type CommandDefinition, type OptionValue } from '@platform/sdk';
import { findCircle } from '../../workspace/circles/store.ts';
import type { Db } from '../../core/db/db.ts';
import type { Actor } from '../../core/auth/actor.ts';
import { graphemeLength } from '../../core/http/text.ts';
import { memberName } from './store.ts';

/** Ours: the spec gives no bound; a string option is text a member types, like a TextInput value. */
export const STRING_OPTION_MAX = 2_000;
/** Ours: an app object is named like a search object (`externalId`, `title`: 200). */
export const APP_OBJECT_FIELD_MAX = 200;

export type OptionInput = string | number | boolean | null
  | { kind: 'member'; memberId: string } | { kind: 'circle'; circleId: string } | { kind: 'appObject'; id: string; title: string };

type Issue = { path: Array<string | number>; message: string; code: string };

/**
 * @example
 * const options = await checkOptions(db, actor, command, { title: 'Ship', count: 3 }); // { title: 'Ship', count: 3 }
 */
export async function checkOptions(db: Db, actor: Actor, command: CommandDefinition, given: Record<string, OptionInput>): Promise<Record<string, OptionValue>> {
  const issues: Issue[] = [];
  const out: Record<string, OptionValue> = {};
  const declared = new Map(command.options.map((o) => [o.name, o]));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) issues.push({ path: ['options', name], message: `The command /${command.name} has no option "${name}"`, code: 'unknown_option' });
  }
  for (const option of command.options) {
    const path = ['options', option.name];
    const value = given[option.name];
    const filled = value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
    if (!filled) {
      if (option.required) issues.push({ path, message: `The option "${option.name}" is required`, code: 'required' });
      continue;
    }
    const bad = (message: string) => issues.push({ path, message, code: 'invalid_option' });
    switch (option.type) {
      case 'string':
        if (typeof value !== 'string') bad('Expected text');
        else if (graphemeLength(value) > STRING_OPTION_MAX) bad(`Keep this to ${STRING_OPTION_MAX} characters or fewer`);
        else out[option.name] = value;
        break;
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) bad('Expected a whole number');
        else out[option.name] = value;
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) bad('Expected a number');
        else out[option.name] = value;
        break;
      case 'boolean':
        if (typeof value !== 'boolean') bad('Expected true or false');
        else out[option.name] = value;
        break;
      case 'choice':
        if (typeof value !== 'string' || !(option.choices ?? []).some((c) => c.value === value)) bad('Expected one of the choices');
        else out[option.name] = value;
        break;
      case 'member': {
        const name = typeof value === 'object' && value.kind === 'member' ? await memberName(db, actor.workspaceId, value.memberId) : undefined;
        if (name === undefined || typeof value !== 'object' || value.kind !== 'member') bad('Expected a member of this workspace');
        else out[option.name] = { kind: 'member', memberId: value.memberId, name };
        break;
      }
      case 'circle': {
        const circle = typeof value === 'object' && value.kind === 'circle' ? await findCircle(db, actor.workspaceId, value.circleId, actor.memberId) : undefined;
        if (circle === undefined || !(circle.visibility === 'public' || circle.is_member)) bad('Expected a circle you can see');
        else out[option.name] = { kind: 'circle', circleId: circle.id, name: circle.name };
        break;
      }
      case 'appObject':
        if (typeof value !== 'object' || value.kind !== 'appObject' || value.id.length === 0 || value.id.length > APP_OBJECT_FIELD_MAX
          || graphemeLength(value.title) > APP_OBJECT_FIELD_MAX) bad(`Expected an object of kind ${option.objectKind ?? '?'} (id and title at most ${APP_OBJECT_FIELD_MAX} characters)`);
        else out[option.name] = { kind: 'appObject', id: value.id, title: value.title };
        break;
    }
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return out;
}
