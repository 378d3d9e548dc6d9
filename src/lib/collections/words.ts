// How a header, a preset word or a file-name part is compared: the same in every language, so
// "Fabric Code", "FABRIC_CODE", full-width "ｆａｂｒｉｃ ｃｏｄｅ" and "fabric-code" are one word, and Vietnamese
// without its accents is still itself. Thai's vowel marks are letters and are kept.
const LATIN_ACCENTS = /[\u0300-\u036f]/g;
const SEPARATORS = /[\s\p{P}\p{S}]+/gu;

/** Lower case, full width folded (NFKC), Latin accents dropped, spaces and punctuation removed. */
export function normalizeWord(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKD')
    .replace(LATIN_ACCENTS, '')
    .replace(/đ/g, 'd')
    .replace(SEPARATORS, '')
    .normalize('NFC');
}

/** The "a|b|c" lists the dictionaries keep, each word normalized, empty ones dropped. */
export function splitWords(list: string): string[] {
  return list
    .split('|')
    .map(normalizeWord)
    .filter((w) => w.length > 0);
}
