/**
 * @module apps/ci-identities/subject-pattern
 * Subject patterns of trusted CI identities: `*` stands for any run of characters (`:` and `/`
 * included), everything else matches itself, case-sensitively, over the whole subject. Matching is
 * the classic two-pointer wildcard walk, O(pattern × subject) at worst: no regular expression, so
 * no pattern can backtrack exponentially.
 */

/**
 * @example
 * subjectMatches('repo:acme/app:ref:refs/heads/*', 'repo:acme/app:ref:refs/heads/main'); // true
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < subject.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === subject[s]) {
      p++;
      s++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = s;
    } else if (star >= 0) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
