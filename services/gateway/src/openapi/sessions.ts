import { errorResponses } from './common';
import { ref, type OpenApiFragment } from './types';

/** POST /consent/v0/sessions: consent sessions for browsers (see docs/sdk.md). */
export const sessionsOpenApi: OpenApiFragment = {
  tags: [
    {
      name: 'sessions',
      description:
        'Consent sessions: short-lived, subject-bound bearer tokens for browsers. With `Authorization: Bearer <sessionToken>` and no x-api-key a browser may only ' +
        'GET /dataprocessing/v0/dpgroups/{groupId}/consent-request and /dashboard of the session group, GET /dataprocessing/v0/dpspecs/{id} of the session targets, ' +
        'GET /consent/v0/consents/search and POST /consent/v0/consents for the session subject and issuer (other subject, issuer, target or endpoint: 403; expired: 401). ' +
        "Browser origins must be allowed for the application (the console's Applications page, or `npm run -s admin -- set-origins`).",
    },
  ],
  paths: {
    '/consent/v0/sessions': {
      post: {
        tags: ['sessions'],
        operationId: 'createConsentSession',
        summary: "Mint a consent session token for one subject, from the shop's backend.",
        description:
          'Called by a backend with its access token (scope consent) and x-api-key; the answer goes to the browser, the credentials never do. ' +
          'The token is signed by the oauth service (JWT typ `accord-session+jwt`) and bound to the account, application, subject and issuer, ' +
          'and to the group or targets given (at least one of them). Default lifetime 900 seconds, at most 3600.',
        security: [{ bearer: [], apiKey: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('ConsentSessionRequest') } } },
        responses: {
          '201': { description: 'The session.', content: { 'application/json': { schema: ref('ConsentSession') } } },
          ...errorResponses,
        },
      },
    },
  },
  schemas: {
    ConsentSessionRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['subject', 'issuer'],
      properties: {
        subject: { type: 'string', minLength: 1, maxLength: 1024, pattern: '\\S', description: 'The end user the browser acts for.' },
        issuer: { type: 'string', minLength: 1, maxLength: 1024, pattern: '\\S', description: 'The issuer recorded on the consent events.' },
        groupId: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          pattern: '^[A-Za-z0-9_-]+$',
          description: 'The group whose consent request and dashboard the browser may read.',
        },
        targets: {
          type: 'array',
          minItems: 1,
          maxItems: 100,
          items: { type: 'string', minLength: 1, maxLength: 2048 },
          description: 'Consent targets the browser may record (and, for specification URLs, read). Narrows a group session when both are given.',
        },
        ttlSeconds: { type: 'integer', minimum: 1, maximum: 3600, description: 'Lifetime in seconds (default 900).' },
      },
      anyOf: [{ required: ['groupId'] }, { required: ['targets'] }],
    },
    ConsentSession: {
      type: 'object',
      required: ['sessionToken', 'expiresAt'],
      properties: {
        sessionToken: { type: 'string', description: 'Bearer token for the browser (Authorization: Bearer <sessionToken>, no x-api-key).' },
        expiresAt: { type: 'string', format: 'date-time' },
      },
    },
  },
};
