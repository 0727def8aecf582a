import { sleep } from '@accord/testkit';
import { startStack, type Credentials, type Stack } from './harness';

/**
 * "May I process this?" through the whole stack (docs/consent.md, Decisions): every basis, a
 * point-in-time history, renewal after a material change, expiry, another account's events,
 * agreement with search `current=true`, and the problems of bad input.
 */
jest.setTimeout(90_000);

let stack: Stack;
let acme: Credentials;
let beta: Credentials;
let consentToken: string;
let betaToken: string;
let dpToken: string;

beforeAll(async () => {
  stack = await startStack('decisions');
  acme = await stack.bootstrap({ account: 'acme', app: 'web', scopes: ['consent', 'dataprocessing'] });
  beta = await stack.bootstrap({ account: 'beta', app: 'web', scopes: ['consent'] });
  consentToken = await stack.token(acme, 'consent');
  betaToken = await stack.token(beta, 'consent');
  dpToken = await stack.token(acme, 'dataprocessing');
}, 120_000);
afterAll(async () => stack?.stop());

const ISSUER = 'https://shop.example';
const PLAIN = 'https://shop.example/privacy';
const post = (json: unknown, as: 'acme' | 'beta' = 'acme') =>
  stack.request(
    'POST',
    '/consent/v0/consents',
    as === 'acme' ? { token: consentToken, apiKey: acme.apiKey, json } : { token: betaToken, apiKey: beta.apiKey, json },
  );
const ev = (over: Record<string, unknown>) => ({ subject: 'user-1', issuer: ISSUER, target: PLAIN, ...over });
const decide = (json: unknown) => stack.request('POST', '/consent/v0/decisions', { token: consentToken, apiKey: acme.apiKey, json });
const decideOne = (q: Record<string, string>) =>
  stack.request('GET', `/consent/v0/decisions?${new URLSearchParams(q).toString()}`, { token: consentToken, apiKey: acme.apiKey });
const dp = (method: string, path: string, json?: unknown) =>
  stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, apiKey: acme.apiKey, ...(json ? { json } : {}) });
/** The consent service remembers a specification for ACCORD_CONSENT_SPEC_CACHE_MS (1 s by default). */
const afterCache = () => sleep(1100);

async function spec(fields: Record<string, unknown>): Promise<{ id: string; target: string }> {
  const group = await dp('POST', '/dpgroups', { name: `g-${Math.random().toString(36).slice(2)}`, purpose: 'marketing' });
  const s = await dp('POST', `/dpgroups/${group.body.id}/specs`, { data: 'e-mail', purpose: 'news', action: 'collect', ...fields });
  expect([s.status, s.body]).toEqual([201, expect.anything()]);
  return { id: s.body.id, target: s.body.target };
}

describe('decisions', () => {
  test('every basis, with the evidence of the event it rests on', async () => {
    const optOut = await spec({ regimes: { '*': { model: 'opt-in' }, US: { model: 'opt-out' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } } });
    const notice = await spec({ regimes: { '*': { model: 'notice' } } });
    const contract = await spec({ legalBasis: 'CONTRACT' });
    const lapsing = new Date(Date.now() + 1500).toISOString();
    const [accepted, declined, noAction, expiring, signal] = (
      await post([
        ev({ subject: 'accepts', action: true }),
        ev({ subject: 'declines', action: false }),
        ev({ subject: 'shrugs', action: null }),
        ev({ subject: 'lapses', action: true, expiresAt: lapsing }),
        ev({ subject: 'signals', target: optOut.target, action: null, gpc: true, jurisdiction: 'US-CA' }),
      ])
    ).body as Array<{ id: string }>;
    await sleep(Math.max(0, Date.parse(lapsing) - Date.now() + 50));
    const items = [
      { subject: 'accepts', issuer: ISSUER, target: PLAIN },
      { subject: 'declines', issuer: ISSUER, target: PLAIN },
      { subject: 'nobody', issuer: ISSUER, target: PLAIN },
      { subject: 'shrugs', issuer: ISSUER, target: PLAIN },
      { subject: 'lapses', issuer: ISSUER, target: PLAIN },
      { subject: 'nobody', issuer: ISSUER, target: optOut.target, jurisdiction: 'us-ca' },
      { subject: 'signals', issuer: ISSUER, target: optOut.target },
      { subject: 'nobody', issuer: ISSUER, target: optOut.target, jurisdiction: 'US-CA', gpc: true },
      { subject: 'nobody', issuer: ISSUER, target: notice.target },
      { subject: 'declines', issuer: ISSUER, target: contract.target },
    ];
    const res = await decide({ items });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.at)).toBeLessThanOrEqual(Date.now());
    const got = (res.body.decisions as Array<Record<string, unknown>>).map((d) => [d.subject, d.allowed, d.basis, d.eventId]);
    expect(got).toEqual([
      ['accepts', true, 'consent', accepted!.id],
      ['declines', false, 'declined', declined!.id],
      ['nobody', false, 'no-consent', undefined],
      ['shrugs', false, 'no-consent', noAction!.id],
      ['lapses', false, 'expired', expiring!.id],
      ['nobody', true, 'opt-out', undefined],
      ['signals', false, 'gpc', signal!.id],
      ['nobody', false, 'gpc', undefined],
      ['nobody', true, 'not-required', undefined],
      ['declines', true, 'not-required', undefined],
    ]);
    const [first] = res.body.decisions;
    expect(first).toEqual({
      subject: 'accepts',
      issuer: ISSUER,
      target: PLAIN,
      scope: 'default',
      allowed: true,
      basis: 'consent',
      eventId: accepted!.id,
      evidence: {
        receipt: `${stack.baseUrl}/consent/v0/consents/${accepted!.id}/receipt`,
        proof: `${stack.baseUrl}/consent/v0/consents/${accepted!.id}/proof`,
      },
    });
    expect(res.body.decisions[4]).toMatchObject({ expiresAt: lapsing });
    expect(res.body.decisions[5]).toMatchObject({ regime: { key: 'US-CA', model: 'opt-out', gpc: 'opt-out' } });
    // the evidence is there to fetch
    const receipt = await stack.request('GET', new URL(first.evidence.receipt).pathname, { token: consentToken, apiKey: acme.apiKey });
    expect(receipt.status).toBe(200);
    // GET answers one, the same way
    const one = await decideOne({ subject: 'declines', issuer: ISSUER, target: PLAIN });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body.decisions[1]);
  });

  test('renewal after a material change (not before it), and a new accept ends it', async () => {
    const s = await spec({});
    const given = await post(ev({ subject: 'reader', target: s.target, action: true }));
    expect(given.body.targetVersion).toBe(1);
    const item = { subject: 'reader', issuer: ISSUER, target: s.target };
    expect((await decide({ items: [item] })).body.decisions[0]).toMatchObject({ allowed: true, basis: 'consent', targetVersion: 1 });
    expect((await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'news and partner offers' })).body).toMatchObject({ version: 2, reconsentSince: 2 });
    await afterCache();
    expect((await decide({ items: [item] })).body.decisions[0]).toMatchObject({ allowed: false, basis: 'renewal-required', eventId: given.body.id });
    // before the change, the accept was all it took: the specification as it was then decides
    expect((await decide({ at: given.body.createdAt, items: [item] })).body.decisions[0]).toMatchObject({
      allowed: true,
      basis: 'consent',
      eventId: given.body.id,
    });
    const again = await post(ev({ subject: 'reader', target: s.target, action: true }));
    expect((await decide({ items: [item] })).body.decisions[0]).toMatchObject({ allowed: true, basis: 'consent', eventId: again.body.id, targetVersion: 2 });
  });

  test('a past `at` answers what was true then across accept → withdraw → accept', async () => {
    expect((await post(ev({ subject: 'always', action: true }))).status).toBe(201);
    const history: Array<{ id: string; createdAt: string }> = [];
    for (const action of [true, false, true]) {
      await sleep(5);
      history.push((await post(ev({ subject: 'history', action }))).body);
      await sleep(5);
    }
    const item = { subject: 'history', issuer: ISSUER, target: PLAIN };
    const at = (t: number) => new Date(t).toISOString();
    const t = history.map((h) => Date.parse(h.createdAt));
    const asked = [at(t[0]! - 1), at(t[0]!), at(t[1]! - 1), at(t[1]!), at(t[2]! - 1), at(t[2]!)];
    const answers = [];
    for (const a of asked) answers.push((await decide({ at: a, items: [item] })).body);
    expect(answers.map((b) => [b.at, b.decisions[0].basis, b.decisions[0].eventId])).toEqual([
      [asked[0], 'no-consent', undefined],
      [asked[1], 'consent', history[0]!.id],
      [asked[2], 'consent', history[0]!.id],
      [asked[3], 'declined', history[1]!.id],
      [asked[4], 'declined', history[1]!.id],
      [asked[5], 'consent', history[2]!.id],
    ]);
    // in one batch too, with a state answered by its current event beside it
    const mixed = await decide({ at: asked[3], items: [item, { subject: 'always', issuer: ISSUER, target: PLAIN }] });
    expect(mixed.body.decisions.map((d: { basis: string }) => d.basis)).toEqual(['declined', 'consent']);
    // expiry is judged at `at`
    const lapsing = new Date(Date.now() + 1000).toISOString();
    const lapse = await post(ev({ subject: 'lapses-later', action: true, expiresAt: lapsing }));
    await sleep(Math.max(0, Date.parse(lapsing) - Date.now() + 50));
    const lapseItem = { subject: 'lapses-later', issuer: ISSUER, target: PLAIN };
    expect((await decide({ at: lapse.body.createdAt, items: [lapseItem] })).body.decisions[0]).toMatchObject({ basis: 'consent' });
    expect((await decide({ items: [lapseItem] })).body.decisions[0]).toMatchObject({ basis: 'expired' });
    // GET takes `at` as well
    expect((await decideOne({ ...item, at: asked[3]! })).body).toMatchObject({ basis: 'declined', eventId: history[1]!.id });
  });

  test("another account's events never influence a decision", async () => {
    expect((await post(ev({ subject: 'shared', action: true }), 'beta')).status).toBe(201);
    expect((await post(ev({ subject: 'shared-declined', action: false }), 'beta')).status).toBe(201);
    const res = await decide({
      items: [
        { subject: 'shared', issuer: ISSUER, target: PLAIN },
        { subject: 'shared-declined', issuer: ISSUER, target: PLAIN },
      ],
    });
    expect(res.body.decisions.map((d: Record<string, unknown>) => [d.basis, d.eventId])).toEqual([
      ['no-consent', undefined],
      ['no-consent', undefined],
    ]);
    const past = await decide({ at: new Date().toISOString(), items: [{ subject: 'shared', issuer: ISSUER, target: PLAIN }] });
    expect(past.body.decisions[0]).toMatchObject({ basis: 'no-consent' });
    expect(past.body.decisions[0]).not.toHaveProperty('eventId');
  });

  test('agrees with search current=true on the same keys', async () => {
    const s = await spec({});
    await post([
      ev({ subject: 'agree-1', target: s.target, action: true }),
      ev({ subject: 'agree-2', target: s.target, action: false }),
      ev({ subject: 'agree-3', target: s.target, action: null }),
      ev({ subject: 'agree-4', target: s.target, action: true, scope: 'sms' }),
    ]);
    const later = await post(ev({ subject: 'agree-5', target: s.target, action: true }));
    expect(later.status).toBe(201);
    await dp('PATCH', `/dpspecs/${s.id}`, { purpose: 'changed' });
    // new consents name the version the consent service knows (remembered for a second)
    await afterCache();
    await post(ev({ subject: 'agree-1', target: s.target, action: true }));
    const keys = ['agree-1', 'agree-2', 'agree-3', 'agree-4', 'agree-5', 'agree-none'].map((subject) => ({
      subject,
      issuer: ISSUER,
      target: s.target,
      scope: subject === 'agree-4' ? 'sms' : 'default',
    }));
    const decided = (await decide({ items: keys })).body.decisions as Array<{ allowed: boolean; eventId?: string }>;
    for (const [i, k] of keys.entries()) {
      const cur = (
        await stack.request('GET', `/consent/v0/consents/search?${new URLSearchParams({ ...k, current: 'true' }).toString()}`, {
          token: consentToken,
          apiKey: acme.apiKey,
        })
      ).body as Array<{ id: string; action: boolean | null; expired?: boolean; renewalRequired?: boolean }>;
      const state = cur[0];
      expect(decided[i]!.eventId).toBe(state?.id);
      expect(decided[i]!.allowed).toBe(!!state && state.action === true && !state.expired && !state.renewalRequired);
    }
    // agree-1 accepted again after the change; agree-4 and agree-5 accepted the version before it
    expect(decided.map((d) => d.allowed)).toEqual([true, false, false, false, false, false]);
  });

  test('bad input: 400 problems naming the item and field', async () => {
    const ok = { subject: 's', issuer: ISSUER, target: PLAIN };
    const fields = (body: { errors?: Array<{ field: string }> }) => (body.errors ?? []).map((e) => e.field);
    const empty = await decide({ items: [] });
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toEqual(['/items']);
    const tooMany = await decide({ items: Array.from({ length: 10_001 }, () => ({ subject: 's', issuer: 'i', target: 't' })) });
    expect(tooMany.status).toBe(400);
    expect(fields(tooMany.body)).toEqual(['/items']);
    const items = Array.from({ length: 20 }, () => ({ ...ok }));
    delete (items[17] as Partial<typeof ok>).subject;
    (items[3] as Record<string, unknown>).scope = 7;
    (items[4] as Record<string, unknown>).jurisdiction = 'not a code';
    (items[5] as Record<string, unknown>).colour = 'red';
    const bad = await decide({ items });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(fields(bad.body).sort()).toEqual(['/items/17/subject', '/items/3/scope', '/items/4/jurisdiction', '/items/5/colour'].sort());
    const blank = await decide({ items: [ok, { ...ok, scope: '   ' }] });
    expect(fields(blank.body)).toEqual(['/items/1/scope']);
    // a code of the right shape outside the ISO lists: the consent service names it
    const unknown = await decide({ items: [ok, ok, { ...ok, jurisdiction: 'ZZ' }] });
    expect(unknown.status).toBe(400);
    expect(fields(unknown.body)).toEqual(['/items/2/jurisdiction']);
    const future = await decide({ at: new Date(Date.now() + 60_000).toISOString(), items: [ok] });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([{ field: '/at', message: 'must not be in the future' }]);
    expect(fields((await decide({ at: 'yesterday', items: [ok] })).body)).toEqual(['/at']);
    expect(fields((await decide({ items: [ok], extra: 1 })).body)).toEqual(['/extra']);
    const getFuture = await decideOne({ ...ok, at: new Date(Date.now() + 60_000).toISOString() });
    expect(getFuture.status).toBe(400);
    expect(getFuture.body.errors).toEqual([{ field: 'at', message: 'must not be in the future' }]);
    expect(fields((await decideOne({ issuer: ISSUER, target: PLAIN })).body)).toEqual(['subject']);
    const put = await stack.request('PUT', '/consent/v0/decisions', { token: consentToken, apiKey: acme.apiKey, json: {}, unchecked: true });
    expect(put.status).toBe(405);
  });
});
