/**
 * @module render/format
 * Numbers as the catalog defines them: `number` (with a `unit`), `percent` (fractions),
 * `currency` (ISO 4217), `duration` (seconds), in one fixed locale so output is stable.
 */

export interface NumberFormat {
  format?: unknown;
  currency?: unknown;
  unit?: unknown;
}

const LOCALE = 'en';

function duration(seconds: number): string {
  const s = Math.round(Math.abs(seconds));
  const parts = [[Math.floor(s / 3600), 'h'], [Math.floor((s % 3600) / 60), 'm'], [s % 60, 's']] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`).join(' ');
  return `${seconds < 0 ? '-' : ''}${shown === '' ? '0s' : shown}`;
}

/** A number written the way its format says. */
export function formatNumber(value: unknown, f: NumberFormat): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  switch (f.format) {
    case 'percent':
      return new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 }).format(value);
    case 'currency':
      try {
        return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: String(f.currency) }).format(value);
      } catch {
        return `${new Intl.NumberFormat(LOCALE).format(value)} ${String(f.currency)}`;
      }
    case 'duration':
      return duration(value);
    default: {
      const n = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 }).format(value);
      return typeof f.unit === 'string' && f.unit !== '' ? `${n} ${f.unit}` : n;
    }
  }
}

/** A byte count for files. */
export function formatBytes(size: unknown): string {
  if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = size;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}
