// Typed query meta: a query opts into offline persistence with `meta: { persist: true }`.
import '@tanstack/react-query';

export interface LoomQueryMeta extends Record<string, unknown> {
  /** Keep this query's data in IndexedDB so it renders offline and after a reload. */
  persist?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: LoomQueryMeta;
  }
}
