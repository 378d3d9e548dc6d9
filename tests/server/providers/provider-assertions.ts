// Asserting that an adapter call failed with a ProviderError of a given kind.
import { expect } from 'vitest';
import { ProviderError, type ProviderErrorKind } from '../../../server/providers/capabilities.js';

export async function expectProviderError(promise: Promise<unknown>, kind: ProviderErrorKind, message?: RegExp): Promise<ProviderError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a ProviderError '${kind}', got a result: ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const failure = error as ProviderError;
  expect({ kind: failure.kind, message: failure.message }).toMatchObject({ kind });
  if (message) expect(failure.message).toMatch(message);
  return failure;
}
