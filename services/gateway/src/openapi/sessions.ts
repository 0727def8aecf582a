import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { ref, type OpenApiFragment } from './types';

/**
 * POST /consent/v0/sessions: consent sessions for browsers (see docs/sdk.md). The request and
 * answer schemas are the contract's, @accord/proto's contracts/sessions.ts.
 */
const { LIMITS } = contracts.sessions;

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
          `and to the group or targets given (at least one of them). Default lifetime ${LIMITS.ttlDefault} seconds, at most ${LIMITS.ttlMax}.`,
        security: [{ bearer: [], apiKey: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('ConsentSessionRequest') } } },
        responses: {
          '201': { description: 'The session.', content: { 'application/json': { schema: ref('ConsentSession') } } },
          ...errorResponses,
        },
      },
    },
  },
  schemas: contracts.sessions.sessionsSchemas,
};
