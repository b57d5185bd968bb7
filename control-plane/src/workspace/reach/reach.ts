/**
 * @module workspace/reach/reach
 * The reach rule (spec, "What the service does", item 9), for events and writes alike:
 *
 * - an install reaches public circles and the private circles its app was invited to;
 * - it never reaches connected circles (a circle whose connection ended stays connected and is
 *   read-only: still unreachable);
 * - a development install reaches only circles its developer belongs to; this narrows the rule
 *   above, it does not replace it (a dev install still needs a public circle or an invitation).
 *
 * A write aimed outside reach answers as if the target did not exist; callers map `false` to
 * their not-found error.
 */

export type InstallKind = 'workspace' | 'dev';

export interface ReachInput {
  installKind: InstallKind;
  circle: { visibility: 'public' | 'private'; connected: boolean; readOnly?: boolean };
  /** The app is invited to this circle (only matters for private circles). */
  appInvited: boolean;
  /** The developer of a dev install belongs to this circle (only matters for dev installs). */
  developerIsMember: boolean;
}

/**
 * @example
 * canReach({ installKind: 'workspace', circle: { visibility: 'public', connected: false }, appInvited: false, developerIsMember: false }); // true
 */
export function canReach(input: ReachInput): boolean {
  const { circle } = input;
  if (circle.connected || circle.readOnly === true) return false;
  if (input.installKind === 'dev' && !input.developerIsMember) return false;
  return circle.visibility === 'public' || input.appInvited;
}
