// The name every result of the built-in engine carries, so history and the interface say
// plainly that the output is a local preview and not an AI model's.
export const LOCAL_PREVIEW_MODEL = 'loom-local-preview-1 (built-in engine, local preview)';

/** The provider name ProviderErrors of the built-in engine carry. */
export const LOCAL_PROVIDER = 'local';
