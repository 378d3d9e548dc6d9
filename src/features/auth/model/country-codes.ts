// Country calling codes offered on phone sign-in (spec §2); China is the default.
export interface CountryCode {
  code: string;
  /** i18n key of the country's name. */
  nameKey: string;
}

export const COUNTRY_CODES: readonly CountryCode[] = [
  { code: '86', nameKey: 'auth.countries.china' },
  { code: '84', nameKey: 'auth.countries.vietnam' },
  { code: '66', nameKey: 'auth.countries.thailand' },
  { code: '62', nameKey: 'auth.countries.indonesia' },
];

export const DEFAULT_COUNTRY_CODE = '86';
