import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { generateKeyPairSync } from 'node:crypto';
import { createLogger, jwkToJson, NotFoundError, startGrpcServer, implement, type AsyncService, type RunningGrpcServer } from '@accord/common';
import { dataprocessingv1 } from '@accord/proto';
import { input, startTestConsent, type RunningConsent } from './helpers';

const BASE = 'https://accord.example';
const A = { accountId: 'acc-r', appId: 'app-r' };
const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A fake DataProcessingService answering only GetSpecForConsent, for spec "s1" of account acc-r. */
async function fakeDataProcessing(): Promise<{ server: RunningGrpcServer; calls: dataprocessingv1.GetSpecForConsentRequest[] }> {
  const calls: dataprocessingv1.GetSpecForConsentRequest[] = [];
  const logger = createLogger('fake-dp', 'silent');
  const impl = {
    async getSpecForConsent(req: dataprocessingv1.GetSpecForConsentRequest): Promise<dataprocessingv1.SpecForConsent> {
      calls.push(req);
      if (req.accountId !== A.accountId || (req.specId !== 's1' && req.specId !== 'old')) throw new NotFoundError('spec not found');
      return {
        id: req.specId,
        groupId: 'g1',
        data: 'e-mail',
        purpose: 'newsletter',
        action: 'collect',
        sensitive: req.specId === 's1',
        consentTarget: true,
        location: 'EU',
        duration: 30,
        legalBasis: 'CONSENT',
        externalHref: req.specId === 's1' ? 'https://shop.example/privacy#newsletter' : '',
        texts: [],
        groupName: 'Marketing',
        groupPurpose: 'marketing',
        archived: req.specId === 'old',
        version: 3,
        target: `${BASE}/dataprocessing/v0/dpspecs/${req.specId}`,
      };
    },
  };
  const server = await startGrpcServer({
    port: 0,
    logger,
    services: [
      {
        definition: dataprocessingv1.DataProcessingServiceService,
        implementation: implement(impl as unknown as AsyncService<dataprocessingv1.DataProcessingServiceServer>, logger),
        name: 'accord.dataprocessing.v1.DataProcessingService',
      },
    ],
  });
  return { server, calls };
}

let svc: RunningConsent;
let noDp: RunningConsent;
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
  svc = await startTestConsent('consentreceipt', { ...receiptEnv, ACCORD_DATAPROCESSING_ADDR: `127.0.0.1:${dp.server.port}` });
  // same database, but the data processing service is unreachable
  noDp = await startTestConsent('consentreceipt', { ...receiptEnv, ACCORD_DATAPROCESSING_ADDR: '127.0.0.1:1' }, svc.env);
  const keys = await svc.client.getReceiptKeys({});
  jwks = createLocalJWKSet({ keys: keys.jwks!.keys.map((k) => jwkToJson(k) as unknown as JWK) });
});
afterAll(async () => {
  await svc?.stop();
  await noDp?.stop();
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
    expect(dp.calls).toEqual([{ accountId: A.accountId, specId: 's1' }]);
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

  it('issues the receipt from the event alone when the data processing service is unreachable', async () => {
    const target = `${BASE}/dataprocessing/v0/dpspecs/s1`;
    const { events } = await noDp.client.createConsents({ ...A, events: [input({ target })] });
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

  it('answers NOT_FOUND for the receipt of another account’s event', async () => {
    const { events } = await svc.client.createConsents({ ...A, events: [input()] });
    await expect(svc.client.getReceipt({ accountId: 'acc-b', id: events[0]!.id })).rejects.toMatchObject({ code: 5 });
  });
});
