import { contracts } from '@accord/proto';
import { errorResponses } from './common';
import { ref, type OpenApiFragment } from './types';
import { queryParameters } from './params';

// The console API: what the account web application at /console/ calls. Authenticated by the
// session cookie (set by POST /console/api/session); every change also needs the x-csrf-token
// header with the session's CSRF token. Roles: viewer (reads), developer (applications, tokens,
// webhooks, allowed origins), owner (also the API key and members). The request and answer
// schemas are the contract's, @accord/proto's contracts/console.ts.
const { LIMITS, consoleSchemas } = contracts.console;
const security = [{ consoleSession: [] }];
const { '400': e400, '401': e401, '403': e403, '404': e404, '503': e503 } = errorResponses;
const e409 = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const memberParam = { name: 'id', in: 'path', required: true, description: 'Member id.', schema: { type: 'string', maxLength: LIMITS.idLength } };
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const appParam = { name: 'id', in: 'path', required: true, description: 'Application id.', schema: { type: 'string', maxLength: LIMITS.idLength } };
/** The application below /console/api/applications/{appId}/, which the console acts as. */
const appIdParam = { name: 'appId', in: 'path', required: true, schema: { type: 'string' } };
const csrf = {
  name: 'x-csrf-token',
  in: 'header',
  required: true,
  description: 'The CSRF token of the session (from GET /console/api/session).',
  schema: { type: 'string' },
};
const tags = ['console'];
const change = (summary: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  tags,
  summary,
  security,
  parameters: [csrf, ...((extra.parameters as unknown[]) ?? [])],
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'parameters')),
  responses: { ...responses, '401': e401, '403': e403, '503': e503 },
});
const read = (summary: string, responses: Record<string, unknown>, parameters: unknown[] = []) => ({
  tags,
  summary,
  security,
  parameters,
  responses: { ...responses, '401': e401, '503': e503 },
});
/**
 * A collection of the application the console acts as, answered as the API it stands for: its list
 * (any member) and its create (developer), of `item`s (the list described as `items`) from an `input` body.
 */
const appCollection = (c: { list: string; create: string; item: string; items: string; input: string }) => ({
  get: read(c.list, { '200': json({ type: 'array', items: ref(c.item) }, c.items), '404': e404 }, [appIdParam]),
  post: change(c.create, { '201': json(ref(c.item), 'Created.'), '400': e400, '404': e404 }, { parameters: [appIdParam], requestBody: body(c.input) }),
});
type QuerySchema = Parameters<typeof queryParameters>[0];

export const consoleOpenApi: OpenApiFragment = {
  tags: [{ name: 'console', description: 'The API of the account web application (/console/): session cookie + CSRF header, roles owner/developer/viewer.' }],
  paths: {
    '/console/api/session': {
      post: {
        tags,
        summary: 'Signs in with a one-time console link (from `npm run -s admin -- console-link`); sets the HttpOnly session cookie.',
        security: [],
        requestBody: body('ConsoleSignInRequest'),
        responses: { '201': json(ref('ConsoleSession'), 'Signed in; Set-Cookie carries the session.'), '400': e400, '401': e401, '503': e503 },
      },
      get: read('The signed-in member, account, CSRF token and timeouts.', { '200': json(ref('ConsoleSession'), 'The session.') }),
      delete: change('Signs out (this session).', { '204': { description: 'Signed out; the cookie is cleared.' } }),
    },
    '/console/api/oidc': {
      get: {
        tags,
        summary: 'Whether single sign-on (OpenID Connect) is configured.',
        security: [],
        responses: { '200': json({ type: 'object', properties: { enabled: { type: 'boolean' } } }, 'The setting.') },
      },
    },
    '/console/api/oidc/login': {
      get: {
        tags,
        summary: 'Starts single sign-on: a redirect to the identity provider (code + PKCE).',
        security: [],
        responses: { '302': { description: 'To the identity provider.' }, '404': e404, '503': e503 },
      },
    },
    '/console/api/oidc/callback': {
      get: {
        tags,
        summary: "The identity provider's redirect back: opens a session (cookie) and redirects to /console/, or to /console/#signin-error=<reason>.",
        security: [],
        responses: { '302': { description: 'To the console.' }, '404': e404 },
      },
    },
    '/console/api/session/revoke-all': {
      post: change('Signs out everywhere: ends every session of this member.', {
        '200': json({ type: 'object', properties: { revoked: { type: 'integer' } } }, 'Sessions ended.'),
      }),
    },
    '/console/api/members': {
      get: read("The account's console members and their roles, oldest first.", { '200': json({ type: 'array', items: ref('ConsoleMember') }, 'Members.') }),
      post: change(
        'Invites a new member with a role (owner): creates the member and answers a one-time console sign-in link (15 minutes, one use) to hand over.',
        { '201': json(ref('ConsoleInvite'), 'The member and its link, shown once.'), '400': e400, '409': e409('A member of that name exists.') },
        { requestBody: body('ConsoleInviteRequest') },
      ),
    },
    '/console/api/members/{id}': {
      patch: change(
        "Changes a member's role (owner). Takes effect on the member's next request.",
        { '200': json(ref('ConsoleMember'), 'The member.'), '400': e400, '404': e404, '409': e409('The account would have no owner left.') },
        { parameters: [memberParam], requestBody: body('ConsoleMemberUpdateRequest') },
      ),
      delete: change(
        'Removes a member (owner) and ends its sessions; its unused links stop working.',
        { '204': { description: 'Removed.' }, '404': e404, '409': e409('The member is the last owner.') },
        { parameters: [memberParam] },
      ),
    },
    '/console/api/applications': {
      get: read("The account's applications.", { '200': json({ type: 'array', items: ref('ConsoleApplication') }, 'Applications, oldest first.') }),
      post: change(
        'Creates an application (developer). The client secret is in this answer only.',
        { '201': json(ref('ConsoleApplicationWithSecret'), 'Created.'), '400': e400 },
        { requestBody: body('ConsoleApplicationCreateRequest') },
      ),
    },
    '/console/api/applications/{id}/rotate-secret': {
      post: change(
        'A new client secret (developer); the previous one keeps working for graceSeconds (0: stops at once and refresh tokens are revoked).',
        { '200': json(ref('ConsoleApplicationWithSecret'), 'The new secret, shown once.'), '400': e400, '404': e404 },
        { parameters: [appParam], requestBody: body('ConsoleRotateRequest') },
      ),
    },
    '/console/api/applications/{id}/disable': {
      post: change(
        'Disables an application (developer): no more tokens; its refresh token families are revoked.',
        { '200': json(ref('ConsoleApplication'), 'Disabled.'), '404': e404 },
        { parameters: [appParam] },
      ),
    },
    '/console/api/applications/{id}/origins': {
      put: change(
        "Replaces the application's allowed browser origins (developer): the origins whose pages may call the API with the application's consent sessions (CORS). Takes effect at once on this gateway; other gateway replicas follow within ACCORD_API_KEY_CACHE_MS.",
        {
          '200': json(ref('ConsoleApplication'), 'The application with its origins (canonical: lower case, default port dropped, de-duplicated).'),
          '400': e400,
          '404': e404,
        },
        { parameters: [appParam], requestBody: body('ConsoleOriginsRequest') },
      ),
    },
    '/console/api/applications/{id}/tokens': {
      post: change(
        'Issues an access token and a refresh token for the application (developer), as POST /oauth/v0/token would; shown once.',
        { '201': json({ type: 'object' }, 'RFC 6749 token response.'), '400': e400, '404': e404 },
        { parameters: [appParam], requestBody: body('ConsoleTokenRequest') },
      ),
    },
    '/console/api/applications/{id}/token-families': {
      get: read(
        'Refresh token families of the application, newest first.',
        { '200': json({ type: 'array', items: ref('ConsoleTokenFamily') }, 'Families.'), '404': e404 },
        [appParam],
      ),
    },
    '/console/api/token-families/{id}/revoke': {
      post: change(
        'Revokes a refresh token family (developer).',
        { '200': json(ref('ConsoleTokenFamily'), 'Revoked.'), '404': e404 },
        {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: LIMITS.idLength } }],
        },
      ),
    },
    '/console/api/api-key': { get: read("The account's API key, masked.", { '200': json(ref('ConsoleApiKey'), 'Masked key.') }) },
    '/console/api/api-key/rotate': {
      post: change(
        'A new API key (owner); the previous one keeps working for graceSeconds.',
        { '200': json(ref('ConsoleApiKey'), 'The new key (in `apiKey`, shown once).'), '400': e400 },
        {
          requestBody: body('ConsoleRotateRequest'),
        },
      ),
    },
    '/console/api/applications/{appId}/statistics': {
      get: read(
        'Events per day by action over a date range, current accepted/declined per target, and the top targets.',
        { '200': json({ type: 'object' }, 'Statistics.'), '400': e400, '404': e404 },
        [appIdParam, ...queryParameters(consoleSchemas.ConsoleStatisticsQuery as QuerySchema)],
      ),
    },
    '/console/api/applications/{appId}/statistics.csv': {
      get: read(
        'The same as CSV (daily counts, then per-target states), as a download.',
        { '200': { description: 'CSV.', content: { 'text/csv': { schema: { type: 'string' } } } }, '400': e400, '404': e404 },
        [appIdParam, ...queryParameters(consoleSchemas.ConsoleStatisticsQuery as QuerySchema)],
      ),
    },
    '/console/api/applications/{appId}/imports': {
      post: change(
        'Imports consent history as the application (developer); as POST /consent/v0/imports (NDJSON or CSV, streamed, idempotent per line). The `Location` names the import at /consent/v0/imports/{id}; the console reads it at …/imports/{id} below the application.',
        {
          '202': {
            description: 'The import, its body read: `done` (or `failed` with the reason).',
            headers: { Location: { description: 'The import’s progress (the public API’s path).', schema: { type: 'string', format: 'uri' } } },
            content: { 'application/json': { schema: ref('ConsentImport') } },
          },
          '400': e400,
          '404': e404,
        },
        {
          parameters: [appIdParam],
          requestBody: {
            required: true,
            content: {
              'application/x-ndjson': { schema: { type: 'string', description: 'One ConsentEvent JSON object per line, with optional `externalId`.' } },
              'text/csv': { schema: { type: 'string', description: 'A header row, then one event per line.' } },
            },
          },
        },
      ),
    },
    '/console/api/applications/{appId}/imports/{id}': {
      get: read(
        'An import’s progress (every member): state, counts and the first 1,000 errors by line and field; as GET /consent/v0/imports/{id}. Another account’s import is a 404.',
        { '200': json(ref('ConsentImport'), 'The import.'), '404': e404 },
        [appIdParam, { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } }],
      ),
    },
    '/console/api/applications/{appId}/dataprocessing/dpgroups': appCollection({
      list: 'The /dataprocessing/v0 API under the console, acting as the application (every /dataprocessing/v0 path works below …/dataprocessing; changes need developer).',
      create: 'Creates a group for the application (developer); as POST /dataprocessing/v0/dpgroups.',
      item: 'DpGroup',
      items: 'Groups.',
      input: 'DpGroupInput',
    }),
    '/console/api/applications/{appId}/webhooks': appCollection({
      list: "The application's webhooks: the same answers as GET /webhooks/v0 for that application.",
      create: 'Registers a webhook for the application (developer); as POST /webhooks/v0.',
      item: 'Webhook',
      items: 'Webhooks.',
      input: 'WebhookCreateRequest',
    }),
  },
  schemas: consoleSchemas,
};
