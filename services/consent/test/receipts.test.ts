import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { jwkToJson, NotFoundError, type RunningGrpcServer } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import { expectGrpcError, fieldErrors, consentInput as input, startService, type RunningService, startFakeGrpc } from '@accord/testkit';

const BASE = 'https://accord.example';
const A = { accountId: 'acc-r', appId: 'app-r' };
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/**
 * A fake DataProcessingService answering only GetSpecForConsent, for specs "s1", "old" and
 * "edited" of account acc-r. Versions 1 to `versions[spec]` (default 3) exist; "edited" names
 * its version in its purpose.
 */
async function fakeDataProcessing(): Promise<{
  server: RunningGrpcServer;
  calls: dataprocessingv1.GetSpecForConsentRequest[];
  versions: Record<string, number>;
}> {
  const calls: dataprocessingv1.GetSpecForConsentRequest[] = [];
  const versions: Record<string, number> = {};
  const impl = {
    async getSpecForConsent(req: dataprocessingv1.GetSpecForConsentRequest): Promise<dataprocessingv1.SpecForConsent> {
      calls.push(req);
      if (req.accountId !== A.accountId || !['s1', 'old', 'edited', 'yearly'].includes(req.specId)) throw new NotFoundError('spec not found');
      const latest = versions[req.specId] ?? 3;
      const version = req.version ?? latest;
      if (version < 1 || version > latest) throw new NotFoundError('version not found');
      return {
        id: req.specId,
        groupId: 'g1',
        data: 'e-mail',
        purpose: req.specId === 'edited' ? `newsletter v${version}` : 'newsletter',
        action: 'collect',
        sensitive: req.specId === 's1',
        consentTarget: true,
        location: 'EU',
        duration: 30,
        legalBasis: 'CONSENT',
        regimes: new Map(),
        externalHref: req.specId === 's1' ? 'https://shop.example/privacy#newsletter' : '',
        texts: [],
        groupName: 'Marketing',
        groupPurpose: 'marketing',
        archived: req.specId === 'old',
        version,
        reconsentSince: 1,
        ...(req.specId === 'yearly' ? { consentValidityDays: 365 } : {}),
        target: `${BASE}/dataprocessing/v0/dpspecs/${req.specId}`,
      };
    },
  };
  const { server } = await startFakeGrpc(dataprocessingv1.DataProcessingServiceService, 'accord.dataprocessing.v1.DataProcessingService', impl);
  return { server, calls, versions };
}

let svc: RunningService<'consent'>;
let noDp: RunningService<'consent'>;
let cached: RunningService<'consent'>;
let dp: Awaited<ReturnType<typeof fakeDataProcessing>>;
let jwks: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  dp = await fakeDataProcessing();
  const receiptEnv = {
    ACCORD_BASE_URL: BASE,
    ACCORD_RECEIPT_SIGNING_KEYS: pem,
    ACCORD_RECEIPT_JURISDICTION: 'DE',
    ACCORD_RECEIPT_CONTROLLER_NAME: 'Shop GmbH',
    ACCORD_RECEIPT_CONTROLLER_CONTACT: 'privacy@shop.example',
  };
  svc = await startService('consent', 'consentreceipt', {
    ...receiptEnv,
    ACCORD_DATAPROCESSING_ADDR: `127.0.0.1:${dp.server.port}`,
    ACCORD_CONSENT_SPEC_CACHE_MS: '0',
  });
  // same database and data processing service, current versions remembered for a minute
  cached = await startService('consent', svc.env, {
    ...receiptEnv,
    ACCORD_DATAPROCESSING_ADDR: `127.0.0.1:${dp.server.port}`,
    ACCORD_CONSENT_SPEC_CACHE_MS: '60000',
  });
  // same database, but the data processing service is unreachable
  noDp = await startService('consent', svc.env, { ...receiptEnv, ACCORD_DATAPROCESSING_ADDR: '127.0.0.1:1' });
  const keys = await svc.client.getReceiptKeys({});
  jwks = createLocalJWKSet({ keys: keys.jwks!.keys.map((k) => jwkToJson(k) as unknown as JWK) });
});
afterAll(async () => {
  await svc?.stop();
  await noDp?.stop();
  await cached?.stop();
  await dp?.server.shutdown(100);
});

const verify = async (receipt: string) =>
  (await jwtVerify(receipt, jwks, { issuer: `${BASE}/consent/v0` })).payload as Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- receipt claims are walked freely in assertions

describe('receipts', () => {
  it('publishes the receipt keys with kid and alg, from ACCORD_RECEIPT_SIGNING_KEYS', async () => {
    const { jwks: set } = await svc.client.getReceiptKeys({});
    expect(set!.keys).toHaveLength(1);
    expect(set!.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256', crv: 'P-256', use: 'sig', kid: expect.any(String) });
    const other = await noDp.client.getReceiptKeys({});
    expect(other.jwks!.keys[0]!.kid).toBe(set!.keys[0]!.kid);
  });

  it('signs a Kantara v1.1.0 receipt for an event with any target, verifiable with the published keys', async () => {
    const { events } = await svc.client.createConsents({ ...A, events: [input({ subject: 'alice', action: true, scope: 'newsletter', source: 'web-form' })] });
    const ev = events[0]!;
    const { receipt } = await svc.client.getReceipt({ accountId: A.accountId, id: ev.id });
    expect(decodeProtectedHeader(receipt)).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    const p = await verify(receipt);
    expect(p).toMatchObject({
      version: 'KI-CR-v1.1.0',
      jurisdiction: 'DE',
      consentTimestamp: Math.floor(ev.createdAt!.getTime() / 1000),
      collectionMethod: 'source: web-form',
      consentReceiptID: ev.id,
      language: 'en',
      piiPrincipalId: 'alice',
      piiControllers: [{ piiController: 'Shop GmbH', contact: 'privacy@shop.example', onBehalf: false, piiControllerUrl: BASE }],
      policyUrl: ev.target,
      services: [
        { service: ev.target, purposes: [{ purpose: 'newsletter', consentType: 'EXPLICIT', primaryPurpose: true, piiCategory: [], purposeCategory: [] }] },
      ],
      sensitive: false,
      spiCat: [],
      sub: 'alice',
      jti: ev.id,
      accord: { eventId: ev.id, action: true, scope: 'newsletter', token: ev.token, issuer: ev.issuer, target: ev.target, source: 'web-form' },
    });
    expect(JSON.parse(p.publicKey as string)).toMatchObject({ kty: 'EC', crv: 'P-256' });
  });

  it('takes purpose, data category, legal basis and sensitivity from the data processing specification the target names', async () => {
    dp.calls.length = 0;
    const target = `${BASE}/dataprocessing/v0/dpspecs/s1`;
    const { events } = await svc.client.createConsents({ ...A, events: [input({ subject: 'bob', target, action: false })] });
    const p = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    // the create call asks for the current version, the receipt for the version recorded
    expect(dp.calls).toEqual([
      { accountId: A.accountId, specId: 's1' },
      { accountId: A.accountId, specId: 's1', version: 3 },
    ]);
    expect(events[0]!.targetVersion).toBe(3);
    expect(p).toMatchObject({
      policyUrl: 'https://shop.example/privacy#newsletter',
      sensitive: true,
      spiCat: ['e-mail'],
      services: [
        {
          service: 'Marketing',
          purposes: [
            {
              purpose: 'newsletter',
              purposeCategory: ['marketing'],
              piiCategory: ['e-mail'],
              legalBasis: 'CONSENT',
              termination: '30 days',
              location: 'EU',
              processingAction: 'collect',
            },
          ],
        },
      ],
      accord: { action: false, spec: { id: 's1', version: 3, archived: false } },
    });
  });

  it('also recognises urn:accord:dpspec targets and marks a deleted (archived) specification', async () => {
    const { events } = await svc.client.createConsents({ ...A, events: [input({ target: 'urn:accord:dpspec:old' })] });
    const p = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    expect(p.accord.spec).toEqual({ id: 'old', version: 3, archived: true });
    expect(p.policyUrl).toBe(`${BASE}/consent/v0/consents/${events[0]!.id}`);
  });

  it('issues the receipt from the event alone when the specification is unknown or foreign', async () => {
    const other = { accountId: 'acc-other', appId: 'x' };
    const target = `${BASE}/dataprocessing/v0/dpspecs/s1`;
    const { events } = await svc.client.createConsents({ ...other, events: [input({ target })] });
    const p = await verify((await svc.client.getReceipt({ accountId: other.accountId, id: events[0]!.id })).receipt);
    expect(p.sensitive).toBe(false);
    expect(p.services[0].service).toBe(target);
    expect(p.accord.spec).toBeUndefined();
  });

  it('issues the receipt from the event alone when the data processing service is unreachable (the event then has no version)', async () => {
    const target = `${BASE}/dataprocessing/v0/dpspecs/s1`;
    const { events } = await noDp.client.createConsents({ ...A, events: [input({ target })] });
    expect(events[0]!.targetVersion).toBeUndefined();
    const p = await verify((await noDp.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    expect(p.services[0]).toMatchObject({ service: target, purposes: [{ purpose: 'default' }] });
    expect(p.accord.spec).toBeUndefined();
  });

  it('gives the same receipt content for the same event every time, but for the log anchor that a sequenced event gains', async () => {
    const { events } = await svc.client.createConsents({ ...A, events: [input({ target: `${BASE}/dataprocessing/v0/dpspecs/s1` })] });
    // the anchor (accord.log) appears once the event is sequenced and names the head of the moment (docs/consent-log.md)
    const withoutAnchor = (claims: Awaited<ReturnType<typeof verify>>) => ({
      ...claims,
      accord: { ...claims.accord, log: undefined },
    });
    const r1 = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    const r2 = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    expect(withoutAnchor(r2)).toEqual(withoutAnchor(r1));
  });

  it('describes the specification version consented to, even after the specification changed', async () => {
    const target = `${BASE}/dataprocessing/v0/dpspecs/edited`;
    dp.versions.edited = 3;
    const { events: before } = await svc.client.createConsents({ ...A, events: [input({ subject: 'carol', target, action: true })] });
    dp.versions.edited = 4;
    const { events: after } = await svc.client.createConsents({ ...A, events: [input({ subject: 'carol', target, action: true })] });
    expect([before[0]!.targetVersion, after[0]!.targetVersion]).toEqual([3, 4]);
    const old = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: before[0]!.id })).receipt);
    const now = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: after[0]!.id })).receipt);
    expect(old.services[0].purposes[0].purpose).toBe('newsletter v3');
    expect(old.accord).toMatchObject({ targetVersion: 3, spec: { id: 'edited', version: 3 } });
    expect(now.services[0].purposes[0].purpose).toBe('newsletter v4');
    // stored: a later read gives the same
    expect((await svc.client.getConsent({ accountId: A.accountId, id: before[0]!.id })).targetVersion).toBe(3);
  });

  it('keeps the version a client sent, and refuses a future version or a version of an unknown specification, naming targetVersion', async () => {
    dp.versions.edited = 4;
    const target = `${BASE}/dataprocessing/v0/dpspecs/edited`;
    const { events } = await svc.client.createConsents({ ...A, events: [input({ target, targetVersion: 2 })] });
    expect(events[0]!.targetVersion).toBe(2);
    const p = await verify((await svc.client.getReceipt({ accountId: A.accountId, id: events[0]!.id })).receipt);
    expect(p.services[0].purposes[0].purpose).toBe('newsletter v2');

    const future = await expectGrpcError(
      svc.client.createConsents({ ...A, events: [input({ target }), input({ target: 'urn:accord:dpspec:edited', targetVersion: 5 })] }),
      3,
    );
    expect(fieldErrors(future)).toEqual([{ field: '/1/targetVersion', message: "is later than the specification's current version 4" }]);
    const unknown = await expectGrpcError(svc.client.createConsents({ ...A, events: [input({ target: 'urn:accord:dpspec:nope', targetVersion: 1 })] }), 3);
    expect(fieldErrors(unknown)[0]!.field).toBe('/0/targetVersion');
    // nothing of a refused batch is stored
    const { events: found } = await svc.client.searchConsents({
      ...A,
      subject: 'user-1',
      issuer: 'https://shop.example',
      target: 'urn:accord:dpspec:nope',
      current: false,
    });
    expect(found).toEqual([]);
  });

  it('remembers a current version briefly: a burst of consents to one specification asks once, a newer sent version asks again', async () => {
    dp.versions.edited = 4;
    const target = 'urn:accord:dpspec:edited';
    dp.calls.length = 0;
    for (let i = 0; i < 3; i++) await cached.client.createConsents({ ...A, events: [input({ subject: `burst-${i}`, target })] });
    expect(dp.calls).toHaveLength(1);
    dp.versions.edited = 5;
    const { events } = await cached.client.createConsents({ ...A, events: [input({ subject: 'burst-new', target, targetVersion: 5 })] });
    expect(events[0]!.targetVersion).toBe(5);
    expect(dp.calls).toHaveLength(2);
  });

  it('gives consents to a specification with a consent validity an expiresAt that many days on, unless they bring their own', async () => {
    const target = 'urn:accord:dpspec:yearly';
    const before = Date.now();
    const { events } = await svc.client.createConsents({
      ...A,
      events: [input({ target, action: true }), input({ target, expiresAt: new Date(before + 60_000) })],
    });
    const day = 86_400_000;
    expect(events[0]!.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 365 * day);
    expect(events[0]!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 365 * day);
    expect(events[1]!.expiresAt).toEqual(new Date(before + 60_000));
    // a spec without validity gives none
    const { events: plain } = await svc.client.createConsents({ ...A, events: [input({ target: 'urn:accord:dpspec:s1' })] });
    expect(plain[0]!.expiresAt).toBeUndefined();
  });

  it('answers NOT_FOUND for the receipt of another account’s event', async () => {
    const { events } = await svc.client.createConsents({ ...A, events: [input()] });
    await expect(svc.client.getReceipt({ accountId: 'acc-b', id: events[0]!.id })).rejects.toMatchObject({ code: 5 });
  });
});
