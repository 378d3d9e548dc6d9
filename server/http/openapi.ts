// A minimal OpenAPI 3.1 document of every route, collected as routes register (an onRoute hook on
// the root instance sees every group's routes). Routes describe themselves in `config.openapi`
// with the same zod schemas that validate them, turned into JSON Schema here, so the document
// cannot drift from what the server accepts. @fastify/swagger is not a dependency; this is enough
// for a client generator or a reader.
//
// Answers: a main-API route names its envelope's `data` (`response.data`) and the document shows the
// whole envelope around it, as it goes over the wire; a route outside the envelope (the upscale
// service's own shape) names its whole body (`response.schema`). A zod schema with an id in its
// metadata (`.meta({ id: 'VideoDetail' })`) becomes a named schema under components.schemas, so the
// PWA's generated types (src/lib/api/openapi-types.ts, `npm run api:types`) read
// `components['schemas']['VideoDetail']` for what its client hands back once the envelope is opened.
// Request bodies name theirs `<id>Input` (without the answer's strictness about extra fields).
// An event stream names its event union as its `text/event-stream` schema (one schema per stream,
// each `data:` line holds one of its members), so the PWA's event types are generated as well.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

export interface OpenApiRouteDoc {
  summary?: string;
  tags?: string[];
  /** JSON or multipart fields. */
  body?: z.ZodType;
  bodyContentType?: 'application/json' | 'multipart/form-data';
  query?: z.ZodType;
  /** What a success answers: a description, and `text/event-stream` for the streaming calls. */
  response?: {
    description?: string;
    contentType?: string;
    /** The success status (200 unless said). */
    status?: number;
    /** The envelope's data: the document wraps it in `{ success, code, message, data }`. */
    data?: z.ZodType;
    /** The whole body, for an answer outside the envelope; for an event stream, the union of its events. */
    schema?: z.ZodType;
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: OpenApiRouteDoc;
  }
}

type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** `#/$defs/X` (zod's place for a schema with an id) → `#/components/schemas/X`, `…XInput` for a request's. */
function refsToComponents(value: unknown, suffix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => refsToComponents(v, suffix));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) =>
      key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
        ? [key, `${COMPONENTS}${v.slice('#/$defs/'.length)}${suffix}`]
        : [key, refsToComponents(v, suffix)],
    ),
  );
}

function envelopeOf(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { success: { type: 'boolean' }, code: { type: 'integer' }, message: { type: 'string' }, data },
    required: ['success', 'code', 'message', 'data'],
  };
}

export interface OpenApiCollector {
  document(): JsonSchema;
}

export function collectOpenApi(app: FastifyInstance, info: { title: string; version: string }): OpenApiCollector {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const schemas: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const suffix = io === 'input' ? 'Input' : '';
    const { $schema: _, $defs, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    for (const [id, def] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      const named = refsToComponents(def, suffix) as JsonSchema;
      const known = schemas[id + suffix];
      // Two different schemas under one id would leave one route's answer documented as another's.
      if (known && JSON.stringify(known) !== JSON.stringify(named)) throw new Error(`two different schemas are named ${id}`);
      schemas[id + suffix] = named;
    }
    return refsToComponents(json, suffix) as JsonSchema;
  };
  const responseContent = (response: OpenApiRouteDoc['response']): JsonSchema | undefined => {
    if (!response) return undefined;
    const body = response.data
      ? envelopeOf(toSchema(response.data, 'output'))
      : response.schema
        ? toSchema(response.schema, 'output')
        : undefined;
    if (!body && !response.contentType) return undefined;
    return { content: { [response.contentType ?? 'application/json']: body ? { schema: body } : {} } };
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
      (m) => m !== 'HEAD' && m !== 'OPTIONS',
    );
    if (methods.length === 0 || route.url.includes('*')) return;
    // Fastify's :param is OpenAPI's {param}; a trailing slash is kept as registered.
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const doc = (route.config as { openapi?: OpenApiRouteDoc } | undefined)?.openapi ?? {};
    const params = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = doc.query ? toSchema(doc.query, 'input') : undefined;
    const queryParams = Object.entries((query?.properties as Record<string, JsonSchema> | undefined) ?? {}).map(
      ([name, schema]) => ({
        name,
        in: 'query',
        required: ((query?.required as string[] | undefined) ?? []).includes(name),
        schema,
      }),
    );
    for (const method of methods) {
      const operation: JsonSchema = {
        ...(doc.summary ? { summary: doc.summary } : {}),
        ...(doc.tags ? { tags: doc.tags } : {}),
        parameters: [...params, ...queryParams],
        responses: {
          [String(doc.response?.status ?? 200)]: {
            description: doc.response?.description ?? 'The call answers',
            ...(responseContent(doc.response) ?? {}),
          },
        },
      };
      if (doc.body) {
        operation.requestBody = {
          required: true,
          content: { [doc.bodyContentType ?? 'application/json']: { schema: toSchema(doc.body, 'input') } },
        };
      }
      (paths[path] ??= {})[method.toLowerCase()] = operation;
    }
  });
  return {
    document: () => ({
      openapi: '3.1.0',
      info,
      components: {
        schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
      paths,
    }),
  };
}
