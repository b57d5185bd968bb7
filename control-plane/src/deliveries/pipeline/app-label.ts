/**
 * @module deliveries/pipeline/app-label
 * The `app` label of delivery metrics: the app's slug, so "which app's deliveries fail" is one
 * Prometheus query, and bounded, so a workspace creating apps (or development apps, each with its
 * own slug) cannot grow the series without end. Deliveries without a known app (an install deleted
 * under a queued delivery) are `_unknown`; past `max` distinct slugs in this process, new ones are
 * `_other` until the process restarts.
 */

export const UNKNOWN_APP_LABEL = '_unknown';
export const OTHER_APPS_LABEL = '_other';
export const MAX_APP_LABELS = 500;

export type AppLabel = (slug: string | null | undefined) => string;

/**
 * @example
 * const appLabel = createAppLabel();
 * appLabel('polls') // 'polls'; appLabel(null) // '_unknown'; the 501st new slug // '_other'
 */
export function createAppLabel(max: number = MAX_APP_LABELS): AppLabel {
  const seen = new Set<string>();
  return (slug) => {
    if (slug === null || slug === undefined || slug === '') return UNKNOWN_APP_LABEL;
    if (seen.has(slug)) return slug;
    if (seen.size >= max) return OTHER_APPS_LABEL;
    seen.add(slug);
    return slug;
  };
}
