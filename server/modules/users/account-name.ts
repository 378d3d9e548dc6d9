// What a new account name may be, for the admin API and the operator command alike: letters and
// digits of any script (with the combining marks a script such as Thai writes after a letter), and
// . _ - @; no spaces, controls, lone surrogates, markup or other symbols; 1 to 100 characters.
// Surrounding whitespace is dropped (whitespace only counts as empty) and the name is stored in NFC.
// Only new names are checked: accounts made before the rule still sign in with their names.
import { AppError } from '../../http/app-error.js';

export const ACCOUNT_MAX_LENGTH = 100;

// Starts with a letter or digit; \p{M} only after one (a mark alone would stack on nothing).
const ACCOUNT_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}._@-]*$/u;

/** The account name to store, or null when it breaks the rules. */
export function normalizeAccountName(raw: string): string | null {
  const name = raw.trim().normalize('NFC');
  if (name.length < 1 || name.length > ACCOUNT_MAX_LENGTH) return null;
  return ACCOUNT_PATTERN.test(name) ? name : null;
}

/** The account name to store; a 400 `account_name_invalid` (in the user's language) otherwise. */
export function checkAccountName(raw: string): string {
  const name = normalizeAccountName(raw);
  if (name === null) {
    throw new AppError(400, 'account_name_invalid', {
      vars: { max: ACCOUNT_MAX_LENGTH },
      errors: [{ field: 'account', message: `letters, digits and . _ - @ only, 1 to ${ACCOUNT_MAX_LENGTH} characters` }],
    });
  }
  return name;
}
