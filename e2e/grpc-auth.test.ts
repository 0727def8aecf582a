/**
 * Internal callers over gRPC as a platform team's service makes them (plain grpc-js, the
 * repository's generated clients, the consent port of the stack), with two accounts A and B:
 * refused without a credential, with another account's token or without the scope; their own
 * account's calls work and are what REST sees.
 */
import { status, type ServiceError } from '@grpc/grpc-js';
import { createClient, fieldErrorsOf, type PromiseClient } from '@accord/common';
import { consentv1, limitsv1 } from '@accord/proto';
import { bearer, startStack, type Credentials, type Stack } from './harness';

let stack: Stack;
let a: Credentials;
let b: Credentials;
let consent: PromiseClient<typeof consentv1.ConsentServiceService>;

beforeAll(async () => {
  stack = await startStack('grpc-auth');
  a = await stack.bootstrap({ account: 'grpc-a', app: 'svc', scopes: ['consent', 'dataprocessing'] });
  b = await stack.bootstrap({ account: 'grpc-b', app: 'svc', scopes: ['consent'] });
  // a platform team's client: no service identity, only what each call carries
  consent = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { retries: 0 });
});

afterAll(async () => {
  consent?.close();
  await stack?.stop();
});

const event = (subject: string): consentv1.ConsentInput => ({ subject, issuer: 'https://i.example', target: 'https://t.example/privacy', action: true });
const codeOf = async (p: Promise<unknown>): Promise<number> =>
  p.then(
    () => status.OK,
    (err: ServiceError) => err.code,
  );
/** What account `creds` finds over REST for `subject` (current state). */
async function restSearch(creds: Credentials, subject: string): Promise<unknown[]> {
  const token = await stack.token(creds, 'consent');
  const res = await stack.request('GET', `/consent/v0/consents/search?subject=${subject}&issuer=https://i.example&target=https://t.example/privacy`, {
    token,
    apiKey: creds.apiKey,
  });
  expect(res.status).toBe(200);
  return res.body.items ?? res.body;
}

describe('the consent service over gRPC, as a platform team calls it', () => {
  test('CreateConsents naming account B without any credential is UNAUTHENTICATED, and nothing is stored', async () => {
    const err = await consent.createConsents({ accountId: b.accountId, appId: b.appId, events: [event('forged-1')] }).catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.UNAUTHENTICATED);
    // no detail that helps an attacker: only what to send
    expect((err as ServiceError).details).toBe('credentials required: authorization: Bearer <access token>');
    expect(await restSearch(b, 'forged-1')).toEqual([]);
  });

  test("GetConsent of B's event without a credential is UNAUTHENTICATED; with A's token it is NOT_FOUND, as over REST", async () => {
    const tokenB = await stack.token(b, 'consent');
    const [stored] = (await consent.createConsents({ accountId: b.accountId, appId: '', events: [event('b-own')] }, { metadata: bearer(tokenB) })).events;
    expect(stored?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await codeOf(consent.getConsent({ accountId: b.accountId, id: stored!.id }))).toBe(status.UNAUTHENTICATED);
    expect(await codeOf(consent.getConsent({ accountId: b.accountId, id: stored!.id }, { metadata: bearer('garbage.token.here') }))).toBe(
      status.UNAUTHENTICATED,
    );
    const tokenA = await stack.token(a, 'consent');
    expect(await codeOf(consent.getConsent({ accountId: b.accountId, id: stored!.id }, { metadata: bearer(tokenA) }))).toBe(status.PERMISSION_DENIED);
    expect(await codeOf(consent.getConsent({ accountId: a.accountId, id: stored!.id }, { metadata: bearer(tokenA) }))).toBe(status.NOT_FOUND);
    expect(await codeOf(consent.getConsent({ accountId: '', id: stored!.id }, { metadata: bearer(tokenA) }))).toBe(status.NOT_FOUND);
  });

  test("CreateConsents naming account B with A's access token is PERMISSION_DENIED, and nothing is stored in B", async () => {
    const tokenA = await stack.token(a, 'consent');
    const err = await consent
      .createConsents({ accountId: b.accountId, appId: '', events: [event('forged-2')] }, { metadata: bearer(tokenA) })
      .catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.PERMISSION_DENIED);
    // nor an application of another account named in A's own account
    expect(await codeOf(consent.createConsents({ accountId: a.accountId, appId: b.appId, events: [event('forged-2')] }, { metadata: bearer(tokenA) }))).toBe(
      status.PERMISSION_DENIED,
    );
    expect(await restSearch(b, 'forged-2')).toEqual([]);
    expect(await restSearch(a, 'forged-2')).toEqual([]);
  });

  test('CreateConsents with a token that has only the dataprocessing scope is PERMISSION_DENIED', async () => {
    const dpOnly = await stack.token(a, 'dataprocessing');
    const err = await consent
      .createConsents({ accountId: a.accountId, appId: '', events: [event('no-scope')] }, { metadata: bearer(dpOnly) })
      .catch((e: ServiceError) => e);
    expect((err as ServiceError).code).toBe(status.PERMISSION_DENIED);
    expect((err as ServiceError).details).toMatch(/scope "consent"/);
    expect(await restSearch(a, 'no-scope')).toEqual([]);
  });

  test("A's own calls work: the account and application come from the token, and what gRPC stores is what REST finds", async () => {
    const tokenA = await stack.token(a, 'consent');
    // account_id and app_id left empty: the token's
    const created = await consent.createConsents({ accountId: '', appId: '', events: [event('grpc-user')] }, { metadata: bearer(tokenA) });
    expect(created.events[0]).toMatchObject({ subject: 'grpc-user', appId: a.appId, action: true });
    const found = await restSearch(a, 'grpc-user');
    expect(found).toEqual([expect.objectContaining({ id: created.events[0]!.id, subject: 'grpc-user' })]);
    const decided = await consent.decide(
      { accountId: a.accountId, items: [{ subject: 'grpc-user', issuer: 'https://i.example', target: 'https://t.example/privacy' }] },
      { metadata: bearer(tokenA) },
    );
    expect(decided.decisions[0]).toMatchObject({ allowed: true, basis: 'consent', eventId: created.events[0]!.id });
    // and account B sees none of it
    expect(await restSearch(b, 'grpc-user')).toEqual([]);
  });
});

describe('account limits over gRPC, the same as over REST', () => {
  test("a platform caller's events count against the account's day with its REST writes, and past it CreateConsents is RESOURCE_EXHAUSTED with retry info", async () => {
    const c = await stack.bootstrap({ account: 'grpc-limited', app: 'svc', scopes: ['consent'] });
    const limits = createClient(limitsv1.LimitsServiceService, stack.env.ACCORD_OAUTH_ADDR!, { retries: 0 });
    try {
      await limits.setAccountLimits(
        { accountId: c.accountId, limits: { maxEventsPerDay: 4, maxEventsPerRequest: 3 }, clear: false },
        { metadata: bearer(stack.env.ACCORD_ADMIN_TOKEN!) },
      );
    } finally {
      limits.close();
    }
    const token = await stack.token(c, 'consent');
    const create = (subjects: string[]) =>
      consent.createConsents({ accountId: c.accountId, appId: '', events: subjects.map(event) }, { metadata: bearer(token) });
    // more events in one call than a write may hold: INVALID_ARGUMENT naming them, nothing counted
    const tooMany = (await create(['l1', 'l2', 'l3', 'l4']).catch((e: ServiceError) => e)) as ServiceError;
    expect(tooMany.code).toBe(status.INVALID_ARGUMENT);
    expect(fieldErrorsOf(tooMany)).toEqual([{ field: '/events', message: 'must have at most 3 items' }]);
    // a refused write gives its events back: INVALID_ARGUMENT from the service itself
    expect(
      await codeOf(consent.createConsents({ accountId: c.accountId, appId: '', events: [{ ...event('x'), issuer: '' }] }, { metadata: bearer(token) })),
    ).toBe(status.INVALID_ARGUMENT);
    expect((await create(['l1', 'l2'])).events).toHaveLength(2);
    const rest = await stack.request('POST', '/consent/v0/consents', { token, apiKey: c.apiKey, json: event('l3') });
    expect(rest.status).toBe(201);
    expect(rest.headers.get('ratelimit')).toMatch(/"events-per-day";r=1;/);
    expect((await create(['l4'])).events).toHaveLength(1);
    const over = (await create(['l5']).catch((e: ServiceError) => e)) as ServiceError;
    expect(over.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(over.details).toMatch(/daily event limit \(4\) would be exceeded: 4 used today/);
    const retryAfter = Number(over.metadata.get('retry-after')[0]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    // google.rpc.Status with a google.rpc.RetryInfo, as gRPC libraries read it
    const details = over.metadata.get('grpc-status-details-bin')[0] as Buffer;
    expect(details.toString('latin1')).toContain('type.googleapis.com/google.rpc.RetryInfo');
    // and REST is refused as well: one count
    expect((await stack.request('POST', '/consent/v0/consents', { token, apiKey: c.apiKey, json: event('l6') })).status).toBe(429);
  });

  test('an application past its request limit is RESOURCE_EXHAUSTED over gRPC with the seconds to wait', async () => {
    const c = await stack.bootstrap({ account: 'grpc-throttled', app: 'svc', scopes: ['consent'] });
    const limits = createClient(limitsv1.LimitsServiceService, stack.env.ACCORD_OAUTH_ADDR!, { retries: 0 });
    try {
      await limits.setAccountLimits(
        { accountId: c.accountId, limits: { appRequestsPerSecond: 0.01, appBurst: 3 }, clear: false },
        { metadata: bearer(stack.env.ACCORD_ADMIN_TOKEN!) },
      );
    } finally {
      limits.close();
    }
    const token = await stack.token(c, 'consent');
    const search = () =>
      consent.searchConsents(
        { accountId: c.accountId, subject: 's', issuer: 'https://i.example', target: 'https://t.example/privacy', current: false },
        { metadata: bearer(token) },
      );
    for (let i = 0; i < 3; i++) await search();
    const err = (await search().catch((e: ServiceError) => e)) as ServiceError;
    expect(err.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(err.details).toMatch(/application's request limit is exhausted; retry after \d+ s/);
    expect(Number(err.metadata.get('retry-after')[0])).toBeGreaterThanOrEqual(1);
  });
});
