// The slice of i18next's t() the API layer needs; tests pass a plain function.
export type Translate = (key: string, options?: Record<string, unknown>) => string;
