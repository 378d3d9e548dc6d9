// A sheet or an archive the import refuses, with the key of the message that says why
// (collections.sheetErrors.*) and its values. Nothing is queued after one.
export type SheetErrorKey =
  | 'notASheet'
  | 'xlsUnsupported'
  | 'undecodable'
  | 'unreadable'
  | 'empty'
  | 'tooLarge'
  | 'tooManyRows'
  | 'tooManyImages'
  | 'zipUnreadable'
  | 'zipTooManyEntries'
  | 'zipTooLarge'
  | 'zipBomb';

export class SheetImportError extends Error {
  override readonly name = 'SheetImportError';
  readonly messageKey: `collections.sheetErrors.${SheetErrorKey}`;

  constructor(
    readonly key: SheetErrorKey,
    readonly values: Record<string, string | number> = {},
  ) {
    super(`sheet import refused: ${key}`);
    this.messageKey = `collections.sheetErrors.${key}`;
  }
}

export const MB = 1024 * 1024;
