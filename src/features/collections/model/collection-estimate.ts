// The time left, in the reader's language: "about 12 minutes", "about 1 hour 5 minutes", through
// the app's Intl helpers (unit formats, one object per language).
import { numberFormat } from '../../../i18n/formats';

const MINUTE = 60_000;

function unit(language: string, value: number, unitName: 'second' | 'minute' | 'hour'): string {
  return numberFormat(language, { style: 'unit', unit: unitName, unitDisplay: 'long', maximumFractionDigits: 0 }).format(value);
}

/** Rounded to what a person plans with: seconds under a minute, minutes under an hour, then hours and minutes. */
export function formatDuration(ms: number, language: string): string {
  const safe = Math.max(0, ms);
  if (safe < MINUTE) return unit(language, Math.max(1, Math.round(safe / 1000)), 'second');
  const minutes = Math.round(safe / MINUTE);
  if (minutes < 60) return unit(language, minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${unit(language, hours, 'hour')} ${unit(language, rest, 'minute')}` : unit(language, hours, 'hour');
}
