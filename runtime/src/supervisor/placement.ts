/**
 * @module supervisor/placement
 * Which worker runs a request for an app version: rendezvous hashing keeps each version on the
 * same worker (its isolates stay warm), and the second choice takes over when the first is busier,
 * so one hot app spreads over two workers and no further.
 */

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function pickWorker<W extends { index: number; inFlight: number }>(key: string, candidates: readonly W[]): W | null {
  let first: W | null = null;
  let second: W | null = null;
  let s1 = -1;
  let s2 = -1;
  for (const w of candidates) {
    const score = fnv1a(`${key}#${w.index}`);
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
  if (first === null) return null;
  return second !== null && second.inFlight < first.inFlight ? second : first;
}
