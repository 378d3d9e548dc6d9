// Typed failures of the upscale engine; the HTTP layer maps `code` to a status.

export type UpscaleErrorCode =
  | 'unsupported_type'
  | 'corrupt_image'
  | 'too_many_pixels'
  | 'unknown_model'
  | 'invalid_parameter'
  | 'cancelled'
  | 'engine_error';

export class UpscaleError extends Error {
  constructor(
    readonly code: UpscaleErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpscaleError';
  }
}
