import { ref, type OpenApiFragment } from './types';

/** Shared components: the problem format, security schemes, standard error responses. */
export const commonSchemas = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details. Validation failures list every field at fault in `errors`.',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string', description: 'Problem type URI, `urn:accord:problem:<slug>`.', examples: ['urn:accord:problem:validation'] },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string', description: 'The request path.' },
      requestId: { type: 'string', description: 'The x-request-id of the request, for support.' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'message'],
          properties: {
            field: { type: 'string', description: 'JSON pointer into the body (e.g. `/0/subject`), or the name of a query or path parameter.' },
            message: { type: 'string' },
          },
        },
      },
    },
  },
} as const;

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/** Standard error responses to spread into an operation's `responses`. */
export const errorResponses = {
  '400': problem('Invalid input; `errors` names each field at fault.'),
  '401': problem('Missing, invalid or expired bearer token, or missing/invalid x-api-key (where required).'),
  '403': problem('The token lacks the scope of this API, or the x-api-key belongs to another account.'),
  '404': problem("No such resource in the caller's account."),
  '413': problem("The body is larger than the limit, or holds more events than the account's maximum per request."),
  '503': problem('A backing service is unavailable.'),
} as const;

export const securitySchemes = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /oauth/v0/token.' },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: "The account's API key. Required on /consent/v0; optional elsewhere, where it must match the token's account when sent.",
  },
  basic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret, for the token endpoint.' },
  consoleSession: { type: 'apiKey', in: 'cookie', name: 'accord_console', description: 'The console session cookie (HttpOnly, SameSite=Strict).' },
} as const;

/** A GET of the gateway itself: tagged system, open to anyone (no security); its own copy of `responses` (buildDocument adds to them). */
const systemGet = (summary: string, responses: Record<string, unknown>, parameters?: unknown[]) => ({
  get: { tags: ['system'], summary, security: [], ...(parameters ? { parameters } : {}), responses: { ...responses } },
});
const htmlPage = { '200': { description: 'An HTML page.', content: { 'text/html': {} } } };
const elementsModule = {
  '200': { description: 'JavaScript.' },
  '304': { description: 'Unchanged (If-None-Match).' },
  '404': problem('The bundle is not built here, or another version.'),
};

export const systemOpenApi: OpenApiFragment = {
  tags: [{ name: 'system', description: 'Health, keys and this document.' }],
  paths: {
    '/': systemGet('The start page: links to the console, the API reference, the demo shop (under npm start) and the health endpoints.', htmlPage),
    '/healthz': systemGet('Liveness: the gateway process is up.', { '200': { description: 'Alive.' } }),
    '/readyz': systemGet('Readiness: 200 only when every backing service reports SERVING on the gRPC health protocol.', {
      '200': { description: 'Ready.' },
      '503': { description: 'Some service is not serving; the body says which.' },
    }),
    '/.well-known/jwks.json': systemGet('Public keys (JWK Set) that verify access tokens and consent receipts, each with its kid.', {
      '200': {
        description: 'A JWK Set.',
        content: { 'application/json': { schema: { type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } } } } },
      },
    }),
    '/openapi.json': systemGet('This OpenAPI 3.1 document.', { '200': { description: 'The document.' } }),
    '/docs': systemGet(
      'The API reference UI (Swagger UI) over this document; "Authorize" takes a bearer token, an x-api-key and Basic client credentials.',
      htmlPage,
    ),
    '/sdk/accord-elements.js': systemGet(
      'The web components <accord-consent-request> and <accord-consent-dashboard> with the SDK, as one ES module (ETag; any origin may load it).',
      elementsModule,
    ),
    '/sdk/{version}/accord-elements.js': systemGet(
      'The same module under its version, cached as immutable for a year; another version is 404.',
      elementsModule,
      [{ name: 'version', in: 'path', required: true, schema: { type: 'string' }, description: 'The SDK version, e.g. 0.1.0.' }],
    ),
  },
};

/** Headers of the account limits (IETF RateLimit fields and Retry-After). */
export const rateLimitHeaders = {
  'RateLimit-Policy': {
    description: 'The limits that apply, e.g. `"account";q=2000;w=2, "app";q=1000;w=2` (q: burst, w: seconds to refill from empty).',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'What is left of each limit, e.g. `"account";r=1999;t=1` (r: requests left, t: seconds until full).', schema: { type: 'string' } },
} as const;

/** The 429 answer of every limited operation (added to each by buildDocument). */
export const rateLimitedResponse = {
  ...problem('A request limit of the account or application, or its daily event limit, is exhausted.'),
  headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } }, ...rateLimitHeaders },
};

/** The token endpoint's 429 (RFC 6749 error form, `temporarily_unavailable`). */
export const tokenRateLimitedResponse = {
  description: 'Too many token requests for this client id, or too many failed client authentications for this client id or source address.',
  headers: rateLimitedResponse.headers,
  content: { 'application/json': { schema: ref('OAuthError') } },
};
