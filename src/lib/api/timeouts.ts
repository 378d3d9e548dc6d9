// Request time limits of spec §9, in milliseconds.
export const TIMEOUTS = {
  default: 600_000,
  upload: 300_000,
  third: 150_000,
  image: 600_000,
} as const;
