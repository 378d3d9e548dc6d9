// A setting the server cannot start with; the message names the variable. Its own module, so the
// parsers of parts of the environment (providers/provider-config.ts) throw it without importing
// config.ts, which calls them.
export class ConfigError extends Error {}
