import { commonSchemas, rateLimitedResponse, securitySchemes, systemOpenApi, tokenRateLimitedResponse } from './common';
import { consentOpenApi } from './consent';
import { consentImportsOpenApi } from './consent-imports';
import { consoleOpenApi } from './console';
import { linksOpenApi } from './links';
import { dataprocessingOpenApi } from './dataprocessing';
import { oauthOpenApi } from './oauth';
import { sessionsOpenApi } from './sessions';
import type { JsonSchema, OpenApiFragment } from './types';
import { webhooksOpenApi } from './webhooks';

export const fragments: OpenApiFragment[] = [
  systemOpenApi,
  oauthOpenApi,
  consentOpenApi,
  consentImportsOpenApi,
  dataprocessingOpenApi,
  webhooksOpenApi,
  sessionsOpenApi,
  consoleOpenApi,
  linksOpenApi,
];

/** The OpenAPI 3.1 document of the whole REST surface, served at GET /openapi.json. */
export function buildDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, JsonSchema> = { ...commonSchemas };
  const tags: Array<{ name: string; description?: string }> = [];
  for (const f of fragments) {
    for (const [p, ops] of Object.entries(f.paths)) {
      if (paths[p]) throw new Error(`OpenAPI path ${p} is defined twice`);
      paths[p] = ops;
    }
    for (const [name, schema] of Object.entries(f.schemas ?? {})) {
      if (schemas[name]) throw new Error(`OpenAPI schema ${name} is defined twice`);
      schemas[name] = schema;
    }
    tags.push(...(f.tags ?? []));
  }
  addRateLimitResponses(paths);
  addBodyErrors(paths);
  addPathErrors(paths);
  addDeadlineResponses(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Accord',
      version: '0.1.0',
      description:
        'Consent and data-processing registry. Errors are application/problem+json (RFC 9457) except on the token endpoint (RFC 6749 §5.2). Every response carries x-request-id.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: baseUrl }],
    tags,
    security: [{ bearer: [] }],
    paths,
    components: { schemas, securitySchemes },
  };
}

const LIMITED = /^\/(consent|dataprocessing|webhooks)\/v0\//;

/** Every operation behind the account limits (and the token endpoint) documents its 429. */
function addRateLimitResponses(paths: Record<string, unknown>): void {
  for (const [p, ops] of Object.entries(paths)) {
    const response = p === '/oauth/v0/token' ? tokenRateLimitedResponse : LIMITED.test(p) ? rateLimitedResponse : null;
    if (!response) continue;
    for (const op of Object.values(ops as Record<string, { responses?: Record<string, unknown> }>)) {
      if (op && typeof op === 'object' && op.responses) op.responses['429'] ??= response;
    }
  }
}

const BODY_ERRORS: Record<string, string> = {
  '413': 'The body is larger than the limit.',
  '415': 'The body has a media type this operation does not accept (see requestBody).',
};

/**
 * Every operation can answer 431 (Node's HTTP parser refuses the request); every operation that
 * takes a body also 413 and 415 (the gateway checks both before any route runs), in the form of its 400.
 */
function addBodyErrors(paths: Record<string, unknown>): void {
  for (const item of Object.values(paths) as Array<
    Record<string, { requestBody?: unknown; responses?: Record<string, { description?: string; content?: unknown }> }>
  >) {
    for (const op of Object.values(item)) {
      if (!op?.responses) continue;
      op.responses['431'] ??= {
        description: 'The request line and headers are larger than the limit (64 KiB).',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
      if (!op.requestBody) continue;
      const content = op.responses['400']?.content;
      for (const [code, description] of Object.entries(BODY_ERRORS)) op.responses[code] ??= { description, ...(content ? { content } : {}) };
    }
  }
}

/** Every operation with a path parameter can answer 400 naming it, when its percent-escapes are not UTF-8 (document-routing.ts). */
function addPathErrors(paths: Record<string, unknown>): void {
  for (const [path, item] of Object.entries(paths) as Array<[string, Record<string, { responses?: Record<string, unknown> }>]>) {
    if (!path.includes('{')) continue;
    for (const op of Object.values(item)) {
      if (!op?.responses) continue;
      op.responses['400'] ??= {
        description: 'A path parameter is not valid percent-encoded UTF-8; `errors` names it.',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
    }
  }
}

/**
 * Every operation that reaches a backing service (it documents the 503 of one that is down) can
 * also answer 504: the service did not answer within the gateway's deadline
 * (`ACCORD_GRPC_TIMEOUT_MS`). For a write the outcome is then unknown (docs/reliability.md).
 */
function addDeadlineResponses(paths: Record<string, unknown>): void {
  for (const item of Object.values(paths) as Array<Record<string, { responses?: Record<string, unknown> }>>) {
    for (const op of Object.values(item)) {
      if (!op?.responses?.['503']) continue;
      op.responses['504'] ??= {
        description:
          'A backing service did not answer within the deadline (`ACCORD_GRPC_TIMEOUT_MS`). For a write, whether it took effect is unknown: read it back before retrying (docs/reliability.md).',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
    }
  }
}
