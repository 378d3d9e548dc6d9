// Query keys of every feature in one place, so invalidation and persistence agree on them.
export const queryKeys = {
  profile: ['profile'] as const,
  prompts: {
    all: ['prompts'] as const,
    list: () => ['prompts', 'list'] as const,
  },
  history: {
    all: ['history'] as const,
    list: (kind: 'images' | 'videos') => ['history', 'list', kind] as const,
    detail: (kind: 'image' | 'video', id: number) => ['history', 'detail', kind, id] as const,
    details: ['history', 'detail'] as const,
    recent: ['history', 'recent'] as const,
  },
  collections: {
    all: ['collections'] as const,
    list: () => ['collections', 'list'] as const,
  },
  workshop: {
    all: ['workshop'] as const,
    models: () => ['workshop', 'models'] as const,
    items: () => ['workshop', 'items'] as const,
  },
} as const;
