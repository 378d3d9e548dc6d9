// Query keys of every feature in one place, so invalidation and persistence agree on them.
export const queryKeys = {
  profile: ['profile'] as const,
  prompts: {
    all: ['prompts'] as const,
    list: () => ['prompts', 'list'] as const,
  },
} as const;
