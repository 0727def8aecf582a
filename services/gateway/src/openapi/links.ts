import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { queryParameters } from './params';
import { ref, type OpenApiFragment } from './types';

/**
 * /consent/v0/subjects/links: linked identities (docs/consent.md, Linked identities). The schemas
 * are the contract's, @accord/proto's contracts/links.ts.
 */
const { linkSchemas } = contracts.links;
type QuerySchema = { properties: Record<string, Record<string, unknown>>; required?: readonly string[] };
const security = [{ bearer: [], apiKey: [] }];
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

export const linksOpenApi: OpenApiFragment = {
  paths: {
    '/consent/v0/subjects/links': {
      post: {
        tags: ['consent'],
        operationId: 'linkSubject',
        summary: 'Link an identity (a device or cookie id) to a subject, move it to another, or unlink it (subject null).',
        description:
          'Stores an immutable link event: for this issuer, `identity` belongs to `subject` from now on. The newest link of an identity wins; moving a device is a new link, ' +
          'unlinking is a link with `subject: null`; nothing is rewritten. Each link is a leaf of the consent log (GET /consent/v0/consents/{linkId}/proof), is delivered to `subject.linked` webhooks ' +
          'and is listed in the subject’s JSON export. Current states (search `current=true`, GetCurrentStates, the dashboards) and decisions then ' +
          'resolve across the subject and its identities: per (issuer, target, scope) the newest event of any of them decides, and a decision names it (`identity`); ' +
          'a decision at a past `at` uses the links as they were then. Links never chain: an identity that has identities linked to it, or a subject that is itself ' +
          'linked as an identity, is refused with 409 naming `identity` or `subject`; a subject has at most 100 identities. ' +
          "Only an application's token may link (a consent session is refused with 403): a browser could otherwise attach its device to someone else's consents. " +
          'The web components expose their device id (`deviceId`) so that the application’s backend links it after sign-in (docs/sdk.md).',
        security,
        requestBody: { required: true, content: { 'application/json': { schema: ref('SubjectLinkRequest') } } },
        responses: {
          '201': { description: 'The stored link event.', content: { 'application/json': { schema: ref('SubjectLink') } } },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': problem(
            'The token lacks the scope `consent`, the x-api-key belongs to another account, or the token is a consent session (sessions never link).',
          ),
          '409': problem('The link would chain (`errors` names `identity` or `subject`).'),
          '503': errorResponses['503'],
        },
      },
      get: {
        tags: ['consent'],
        operationId: 'listSubjectLinks',
        summary: "An identity's current link, or the identities currently linked to a subject; every link event with history=true.",
        description:
          'Exactly one of `identity` and `subject`, with `issuer`. Without `history`: the current links (an identity’s newest link, even an unlinking one; ' +
          'the identities whose newest link names the subject). With `history=true`: every link event naming it, newest first, paged with `limit` and `Link: rel="next"`.',
        security,
        parameters: queryParameters(linkSchemas.SubjectLinksQuery as QuerySchema),
        responses: {
          '200': {
            description: 'Link events, newest first.',
            headers: { Link: { description: 'Next page (history): `<url>; rel="next"`.', schema: { type: 'string' } } },
            content: { 'application/json': { schema: { type: 'array', items: ref('SubjectLink') } } },
          },
          '400': errorResponses['400'],
          '401': errorResponses['401'],
          '403': errorResponses['403'],
          '503': errorResponses['503'],
        },
      },
    },
  },
  schemas: linkSchemas,
};
