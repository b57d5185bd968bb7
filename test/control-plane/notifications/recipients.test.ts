/**
 * The recipient rule of notifications (reach for one member), one row per case: the member's
 * workspace against the install's, and a development install's developer.
 */
import { describe, expect, it } from 'vitest';
import { mayNotify, type RecipientInput } from '../../../control-plane/src/messaging/notifications/recipients.ts';

const base: RecipientInput = { installKind: 'workspace', installWorkspaceId: 'ws_1', memberWorkspaceId: 'ws_1', memberId: 'mem_2', developerId: 'mem_1' };

const ROWS: Array<[string, Partial<RecipientInput>, boolean]> = [
  ['workspace install, member of the workspace', {}, true],
  ['workspace install, the developer', { memberId: 'mem_1' }, true],
  ['workspace install, member of another workspace', { memberWorkspaceId: 'ws_2' }, false],
  ['workspace install, no such member', { memberWorkspaceId: null }, false],
  ['dev install, its developer', { installKind: 'dev', memberId: 'mem_1' }, true],
  ['dev install, another member of the workspace', { installKind: 'dev' }, false],
  ['dev install, its developer seen from another workspace', { installKind: 'dev', memberId: 'mem_1', memberWorkspaceId: 'ws_2' }, false],
];

describe('mayNotify', () => {
  for (const [name, change, expected] of ROWS) {
    it(`${name}: ${expected ? 'reached' : 'as if absent'}`, () => {
      expect(mayNotify({ ...base, ...change })).toBe(expected);
    });
  }
});
