/**
 * @module catalog/rules/urls
 * Every URL in a tree (links, images, avatars, files) is `https://` and at most 2,048 characters.
 * The service copies image and avatar URLs and stores asset ids; that copy happens after validation.
 */
import { LIMITS } from '../../limits/limits.ts';
import { OURS, SPEC } from '../kit/messages.ts';
import type { AttrCheck } from '../kit/spec.ts';
import { fail } from '../kit/state.ts';

/** True for an absolute `https://` URL with a host, of at most 2,048 characters. */
export function httpsProblem(value: unknown): 'type' | 'length' | null {
  if (typeof value !== 'string') return 'type';
  if (value.length > LIMITS.blockTree.urlLength) return 'length';
  if (!/^https:\/\//i.test(value)) return 'type';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' ? null : 'type';
  } catch {
    return 'type';
  }
}

/** An `https://` URL attribute. */
export const url = (): AttrCheck => (value, at) => {
  const problem = httpsProblem(value);
  if (problem === 'length') fail(SPEC.tooLong(LIMITS.blockTree.urlLength), at.path);
  if (problem === 'type') fail(OURS.httpsUrl(at.component, at.name), at.path);
};
