/**
 * @module supervisor/placement
 * Rendezvous hashing: every app version ranks the workers the same way on every request, so its
 * warm isolates stay where its requests land, and a worker coming or going moves only the versions
 * that ranked it first.
 */

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The two best-ranked candidates for `key` (the second is null with one candidate). */
export function topTwo<W extends { index: number }>(key: string, candidates: readonly W[]): [W | null, W | null] {
  let first: W | null = null;
  let second: W | null = null;
  let s1 = -1;
  let s2 = -1;
  for (const w of candidates) {
    const score = rendezvousScore(key, w.index);
    if (score > s1) {
      second = first;
      s2 = s1;
      first = w;
      s1 = score;
    } else if (score > s2) {
      second = w;
      s2 = score;
    }
  }
  return [first, second];
}

/** `candidate`'s rendezvous score for `key`: higher ranks first. */
export function rendezvousScore(key: string, index: number): number {
  return fnv1a(`${key}#${index}`);
}
