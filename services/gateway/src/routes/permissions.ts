import type { OperationKey, Permission, Role, SessionRight } from '../middleware/permissions';

const PUBLIC: Permission = { who: 'public' };
const consent = (session?: SessionRight): Permission => ({ who: 'application', scope: 'consent', apiKey: 'required', ...(session ? { session } : {}) });
const dataprocessing = (session?: SessionRight): Permission => ({
  who: 'application',
  scope: 'dataprocessing',
  apiKey: 'optional',
  ...(session ? { session } : {}),
});
const webhooks: Permission = { who: 'application', scope: 'webhooks', apiKey: 'optional' };
const member = (role: Role): Permission => ({ who: 'console', role });

/** The public API's operations the console serves again as one application of the account. */
const DATAPROCESSING: Record<OperationKey, Permission> = {
  'POST /dataprocessing/v0/dpgroups': dataprocessing(),
  'GET /dataprocessing/v0/dpgroups': dataprocessing(),
  'GET /dataprocessing/v0/dpgroups/{group_id}': dataprocessing(),
  'PATCH /dataprocessing/v0/dpgroups/{group_id}': dataprocessing(),
  'PUT /dataprocessing/v0/dpgroups/{group_id}': dataprocessing(),
  'DELETE /dataprocessing/v0/dpgroups/{group_id}': dataprocessing(),
  'POST /dataprocessing/v0/dpgroups/{group_id}/specs': dataprocessing(),
  'GET /dataprocessing/v0/dpgroups/{group_id}/specs': dataprocessing(),
  'GET /dataprocessing/v0/dpgroups/{group_id}/policy': dataprocessing(),
  'GET /dataprocessing/v0/dpgroups/{group_id}/consent-request': dataprocessing('group-consent-request'),
  'GET /dataprocessing/v0/dpgroups/{group_id}/dashboard': dataprocessing('group-dashboard'),
  'GET /dataprocessing/v0/dpspecs/{spec_id}': dataprocessing('target-spec'),
  'PATCH /dataprocessing/v0/dpspecs/{spec_id}': dataprocessing(),
  'PUT /dataprocessing/v0/dpspecs/{spec_id}': dataprocessing(),
  'DELETE /dataprocessing/v0/dpspecs/{spec_id}': dataprocessing(),
  'GET /dataprocessing/v0/dpspecs/{spec_id}/versions': dataprocessing(),
  'GET /dataprocessing/v0/dpspecs/{spec_id}/versions/{n}': dataprocessing(),
  'POST /dataprocessing/v0/dpspecs/{spec_id}/texts': dataprocessing(),
  'GET /dataprocessing/v0/dpspecs/{spec_id}/texts': dataprocessing(),
  'GET /dataprocessing/v0/dpspecs/{spec_id}/texts/{text_id}': dataprocessing(),
  'PATCH /dataprocessing/v0/dpspecs/{spec_id}/texts/{text_id}': dataprocessing(),
  'PUT /dataprocessing/v0/dpspecs/{spec_id}/texts/{text_id}': dataprocessing(),
  'DELETE /dataprocessing/v0/dpspecs/{spec_id}/texts/{text_id}': dataprocessing(),
};
const WEBHOOKS: Record<OperationKey, Permission> = {
  'POST /webhooks/v0': webhooks,
  'GET /webhooks/v0': webhooks,
  'GET /webhooks/v0/{id}': webhooks,
  'PATCH /webhooks/v0/{id}': webhooks,
  'DELETE /webhooks/v0/{id}': webhooks,
  'POST /webhooks/v0/{id}/secret/rotate': webhooks,
  'GET /webhooks/v0/{id}/deliveries': webhooks,
  'POST /webhooks/v0/{id}/deliveries/{deliveryId}/redeliver': webhooks,
  'POST /webhooks/v0/{id}/test': webhooks,
};

/** The console's copy of a public API (routes/console/application-apis.ts): every member reads, developers change. */
function asApplication(api: Record<OperationKey, Permission>, from: string, to: string): Record<OperationKey, Permission> {
  return Object.fromEntries(
    Object.keys(api).map((key) => {
      const [method, path] = key.split(' ') as [string, string];
      return [`${method} ${to}${path.slice(from.length)}`, { who: 'console', role: method === 'GET' ? 'viewer' : 'developer', asApplication: true }];
    }),
  );
}

/**
 * Who may call each route of the gateway, in one table: the one place a route's access is
 * declared. The middleware reads it for the request's route (`middleware/permissions.ts`):
 * the token's scope and x-api-key (`middleware/auth.ts`), a consent session's rights
 * (`middleware/session-auth.ts`), the console member's role (`routes/console/session.ts`).
 * `permissions.test.ts` fails for a route of the gateway, or an operation of the OpenAPI
 * document, without a line here, and for a line without its route.
 */
export const PERMISSIONS: Record<OperationKey, Permission> = {
  // The start page, health, keys, the document, its viewer and the web components: anyone.
  'GET /': PUBLIC,
  'GET /healthz': PUBLIC,
  'GET /readyz': PUBLIC,
  'GET /.well-known/jwks.json': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /docs': PUBLIC,
  'GET /docs/': PUBLIC,
  'GET /docs/init.js': PUBLIC,
  'GET /sdk/accord-elements.js': PUBLIC,
  'GET /sdk/{version}/accord-elements.js': PUBLIC,

  'POST /oauth/v0/token': { who: 'client' },

  // Consent: an application's token with the consent scope and the account's API key.
  'POST /consent/v0/sessions': consent(),
  'POST /consent/v0/consents': consent('record-own'),
  'GET /consent/v0/consents/search': consent('own-states'),
  'GET /consent/v0/consents/export': consent(),
  'GET /consent/v0/consents/statistics': consent(),
  'GET /consent/v0/consents/token/{token}': consent(),
  'GET /consent/v0/consents/{id}': consent(),
  'GET /consent/v0/consents/{id}/receipt': consent(),
  'GET /consent/v0/consents/{id}/proof': consent(),
  'POST /consent/v0/decisions': consent(),
  'GET /consent/v0/decisions': consent(),
  'POST /consent/v0/subjects/erase': consent(),
  'GET /consent/v0/subjects/erasures': consent(),
  'GET /consent/v0/log/tree-head': consent(),
  'GET /consent/v0/log/consistency': consent(),
  // imports: an application's token only (no session right: a browser never imports history)
  'POST /consent/v0/imports': consent(),
  'GET /consent/v0/imports/{id}': consent(),
  // Linked identities: an application's token only, never a consent session (a browser would attach its device to anyone's consents).
  'POST /consent/v0/subjects/links': consent(),
  'GET /consent/v0/subjects/links': consent(),

  ...DATAPROCESSING,
  ...WEBHOOKS,

  // The console: sign-in is open (the link or the identity provider is the proof), the rest needs a member.
  'POST /console/api/session': PUBLIC,
  'GET /console/api/oidc': PUBLIC,
  'GET /console/api/oidc/login': PUBLIC,
  'GET /console/api/oidc/callback': PUBLIC,
  'GET /console/api/session': member('viewer'),
  'DELETE /console/api/session': member('viewer'),
  'POST /console/api/session/revoke-all': member('viewer'),
  'GET /console/api/members': member('viewer'),
  'POST /console/api/members': member('owner'),
  'PATCH /console/api/members/{id}': member('owner'),
  'DELETE /console/api/members/{id}': member('owner'),
  'GET /console/api/applications': member('viewer'),
  'POST /console/api/applications': member('developer'),
  'POST /console/api/applications/{id}/rotate-secret': member('developer'),
  'POST /console/api/applications/{id}/disable': member('developer'),
  'PUT /console/api/applications/{id}/origins': member('developer'),
  'POST /console/api/applications/{id}/tokens': member('developer'),
  'GET /console/api/applications/{id}/token-families': member('viewer'),
  'POST /console/api/token-families/{id}/revoke': member('developer'),
  'GET /console/api/api-key': member('viewer'),
  'POST /console/api/api-key/rotate': member('owner'),
  'GET /console/api/applications/{appId}/statistics': { who: 'console', role: 'viewer', asApplication: true },
  'GET /console/api/applications/{appId}/statistics.csv': { who: 'console', role: 'viewer', asApplication: true },
  // Importing history writes consents as the application: the developer role, as a token with the consent scope (which developers issue) could; every member follows an import's progress.
  'POST /console/api/applications/{appId}/imports': { who: 'console', role: 'developer', asApplication: true },
  'GET /console/api/applications/{appId}/imports/{id}': { who: 'console', role: 'viewer', asApplication: true },
  ...asApplication(DATAPROCESSING, '/dataprocessing/v0', '/console/api/applications/{appId}/dataprocessing'),
  ...asApplication(WEBHOOKS, '/webhooks/v0', '/console/api/applications/{appId}/webhooks'),
  // The console's page (its static files are served beside it, as public as the page).
  'GET /console': PUBLIC,
};
