// Names and search text carry no control characters (NUL among them, which PostgreSQL refuses in
// text, so it once ended as a 500) and no lone surrogates (which cannot be stored as UTF-8).
export const PLAIN_TEXT = /^[^\p{Cc}\p{Cs}]*$/u;
export const PLAIN_TEXT_MESSAGE = 'must not contain control characters or broken Unicode';
