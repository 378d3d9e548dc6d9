// Query keys of the workshop. Kept beside its calls rather than in lib/query/query-keys.ts while
// that shared file is being changed by other pages; the prefix is the feature's own.
export const workshopKeys = {
  all: ['workshop'] as const,
  models: () => ['workshop', 'models'] as const,
  items: () => ['workshop', 'items'] as const,
} as const;
