// Dates and numbers in the interface's language, through one Intl object per language and options.
// A page's first Intl object is the costly one: the browser loads the language's calendar and
// number data for it (50–150 ms of main thread on a mid-range tablet), and the collation data for
// the first localeCompare. Inside a page's first render that time is one long task in which the
// page cannot answer a tap; warmFormats pays it beforehand, in short tasks of their own, while the
// page's chunks and strings are still downloading. Later calls reuse the objects (a list no longer
// builds a formatter per row).

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function keyOf(language: string | undefined, options: object): string {
  return `${language ?? ''} ${JSON.stringify(options)}`;
}

/** `new Intl.DateTimeFormat(language, options)`, made once per language and options. */
export function dateFormat(language: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = keyOf(language, options);
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(language, options)));
  return format;
}

/** `new Intl.NumberFormat(language, options)`, made once per language and options. */
export function numberFormat(language: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = keyOf(language, options);
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(language, options)));
  return format;
}

let warmed: string | null = null;

/**
 * Loads `language`'s formatting data ahead of a first render that formats dates or numbers or
 * sorts text: one step per task (the date formatter carries most of the cost), so input can be
 * handled between them. Once per language.
 */
export function warmFormats(language: string): void {
  if (warmed === language) return;
  warmed = language;
  const steps = [
    () => dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(0),
    () => numberFormat(language, { maximumFractionDigits: 1 }).format(0),
    // localeCompare without a locale: the browser's default collator, which it keeps once made.
    () => 'a'.localeCompare('b'),
  ];
  const next = () => {
    steps.shift()?.();
    if (steps.length) setTimeout(next, 0);
  };
  setTimeout(next, 0);
}
