import type { MessageKey } from './messages.js';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API answers with on purpose: status, localised message key, optional details. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly options: {
      vars?: Record<string, string | number>;
      errors?: FieldError[];
      retryAfterSeconds?: number;
      data?: Record<string, unknown>;
    } = {},
  ) {
    super(key);
  }
}
