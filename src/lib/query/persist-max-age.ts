// How long persisted queries count (query/persistence.ts), and so how long the query client keeps
// them in memory. Its own module: the query client needs the figure at start-up, the persistence
// code (IndexedDB) only with a session.

/** A trade-fair week without network still shows what was loaded at the start. */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
