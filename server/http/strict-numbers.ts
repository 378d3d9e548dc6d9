// Numbers from requests, parsed strictly: a JSON number, or (in a path, a query or a form field,
// where everything is text) a string of decimal digits only. `true`, `[1]`, "", " 1", "1.0", "1e0",
// "0x1" are refused, where z.coerce.number() would have read them as a number. Every id, page, count
// and size a route reads goes through here.
import { z } from 'zod';

const DIGITS = /^\d{1,16}$/;
const DECIMAL = /^\d{1,16}(\.\d{1,16})?$/;

/** A whole number or a string of digits becomes a number; anything else is left for the schema to refuse. */
export function strictInteger(value: unknown): unknown {
  if (typeof value === 'string' && DIGITS.test(value)) return Number(value);
  return value;
}

/** As strictInteger, also taking a plain decimal string ("0.5", "50"). */
export function strictDecimal(value: unknown): unknown {
  if (typeof value === 'string' && DECIMAL.test(value)) return Number(value);
  return value;
}

/** A whole number in [min, max], as a JSON number or a string of digits. */
export function integerField(min: number, max: number = Number.MAX_SAFE_INTEGER) {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(strictInteger, z.number({ error }).int({ error }).min(min, { error }).max(max, { error }));
}

/** A row id: a positive safe integer, as a JSON number or a string of digits. */
export function idField() {
  const error = 'must be a positive whole number';
  return z.preprocess(strictInteger, z.number({ error }).int({ error }).positive({ error }).max(Number.MAX_SAFE_INTEGER, { error }));
}

/** A number in [min, max], as a JSON number or a plain decimal string. */
export function decimalField(min: number, max: number) {
  const error = `must be a number from ${min} to ${max}`;
  return z.preprocess(strictDecimal, z.number({ error }).min(min, { error }).max(max, { error }));
}

/** The `:id` of a route's path. */
export const idParams = z.object({ id: idField() });

/**
 * A list of ids: "1,2,3", ["1","2"], [1,2] or 3 becomes [1,2,3]; each one as strict as idField.
 * Anything else is left for the schema to refuse.
 */
export function idList(value: unknown): unknown {
  if (typeof value === 'number') return [value];
  if (typeof value === 'string') return value.split(',').filter(Boolean).map(strictInteger);
  if (Array.isArray(value)) return value.map(strictInteger);
  return value;
}

/** Ids as idList reads them, at most max (and at least min) of them. */
export function idListField(min: number, max: number) {
  return z.preprocess(idList, z.array(idField()).min(min).max(max));
}
