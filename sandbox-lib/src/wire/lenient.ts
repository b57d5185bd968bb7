/**
 * @module wire/lenient
 * Reading closed lists leniently (spec Versioning 4): a value the reader does not know yet reads as
 * the most neutral option instead of failing the whole response.
 */
import { z } from 'zod';

/**
 * A string enum that reads unknown strings as `fallback`. Non-strings still fail.
 * @example lenientEnum(['neutral', 'info', 'danger'], 'neutral').parse('sparkly') // 'neutral'
 */
export function lenientEnum<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  const known = new Set<string>(values);
  return z.string().transform((value): T[number] => (known.has(value) ? value : fallback));
}
