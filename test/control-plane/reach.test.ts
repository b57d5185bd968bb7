/**
 * The reach rule (spec "What the service does", item 9), one row per case.
 */
import { describe, expect, it } from 'vitest';
import { canReach, type ReachInput } from '@platform/control-plane';

const pub = { visibility: 'public', connected: false } as const;
const priv = { visibility: 'private', connected: false } as const;

const rows: Array<[string, ReachInput, boolean]> = [
  ['workspace install reaches a public circle', { installKind: 'workspace', circle: pub, appInvited: false, developerIsMember: false }, true],
  ['workspace install reaches a private circle the app was invited to', { installKind: 'workspace', circle: priv, appInvited: true, developerIsMember: false }, true],
  ['workspace install does not reach a private circle without an invitation', { installKind: 'workspace', circle: priv, appInvited: false, developerIsMember: false }, false],
  ['never a connected public circle', { installKind: 'workspace', circle: { visibility: 'public', connected: true }, appInvited: false, developerIsMember: false }, false],
  ['never a connected private circle, even with an invitation', { installKind: 'workspace', circle: { visibility: 'private', connected: true }, appInvited: true, developerIsMember: true }, false],
  ['never a connected circle made read-only after its connection ended', { installKind: 'workspace', circle: { visibility: 'public', connected: true, readOnly: true }, appInvited: true, developerIsMember: true }, false],
  ['dev install reaches a public circle its developer belongs to', { installKind: 'dev', circle: pub, appInvited: false, developerIsMember: true }, true],
  ['dev install does not reach a public circle its developer is not in', { installKind: 'dev', circle: pub, appInvited: false, developerIsMember: false }, false],
  ['dev install reaches an invited private circle its developer belongs to', { installKind: 'dev', circle: priv, appInvited: true, developerIsMember: true }, true],
  ['dev install does not reach an invited private circle its developer is not in', { installKind: 'dev', circle: priv, appInvited: true, developerIsMember: false }, false],
  ['dev install does not reach a private circle without an invitation, developer or not', { installKind: 'dev', circle: priv, appInvited: false, developerIsMember: true }, false],
  ['dev install never reaches a connected circle its developer belongs to', { installKind: 'dev', circle: { visibility: 'public', connected: true }, appInvited: true, developerIsMember: true }, false],
  ['an invitation changes nothing for a public circle', { installKind: 'workspace', circle: pub, appInvited: true, developerIsMember: false }, true],
];

describe('reach rule', () => {
  it.each(rows)('%s', (_name, input, expected) => {
    expect(canReach(input)).toBe(expected);
  });
});
