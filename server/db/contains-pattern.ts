// A LIKE condition for "contains this text" in which the user's % and _ match themselves.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

// '!' rather than a backslash: both dialects read it the same way in a plain string literal.
const ESCAPE = '!';

export function likePattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => ESCAPE + c)}%`;
}

export function containsText(column: Expression<string | null>, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} like ${likePattern(text)} escape ${sql.lit(ESCAPE)}`;
}
