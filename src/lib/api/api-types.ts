// The server's answers as the PWA reads them once the client has opened the envelope: the named
// schemas of the generated OpenAPI types (openapi-types.ts, `npm run api:types`). Features alias
// these instead of copying the server's fields, so a field renamed on the server fails the PWA's
// type check instead of its users at run time.
import type { components } from './openapi-types';

export type ApiSchemas = components['schemas'];
export type ApiSchema<Name extends keyof ApiSchemas> = ApiSchemas[Name];
