// A minimal OpenAPI 3.1 document of every route, collected as routes register (an onRoute hook on
// the root instance sees every group's routes). Routes describe themselves in `config.openapi`
// with the same zod schemas that validate them, turned into JSON Schema here, so the document
// cannot drift from what the server accepts. @fastify/swagger is not a dependency; this is enough
// for a client generator or a reader.
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
  response?: { description: string; contentType?: string; schema?: z.ZodType };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: OpenApiRouteDoc;
  }
}

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
};

export interface OpenApiCollector {
  document(): JsonSchema;
}

export function collectOpenApi(app: FastifyInstance, info: { title: string; version: string }): OpenApiCollector {
  const paths: Record<string, Record<string, JsonSchema>> = {};
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
          default: {
            description: doc.response?.description ?? 'The call answers',
            ...(doc.response?.schema || doc.response?.contentType
              ? {
                  content: {
                    [doc.response.contentType ?? 'application/json']: doc.response.schema
                      ? { schema: toSchema(doc.response.schema, 'output') }
                      : {},
                  },
                }
              : {}),
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
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
      paths,
    }),
  };
}
