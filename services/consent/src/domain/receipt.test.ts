import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, exportJWK, jwtVerify } from 'jose';
import type { ConsentEvent } from './consent';
import { receiptClaims, signReceipt, specIdOfTarget, type SpecDetails } from './receipt';

const settings = { baseUrl: 'https://accord.example', jurisdiction: 'EU', controllerName: 'Acme', controllerContact: 'dpo@acme.example', language: 'en' };
const ev: ConsentEvent = {
  id: '0193a5c2f1e8000000a1b2c3d4e5f601',
  accountId: 'acc',
  appId: 'app',
  subject: 'user-1',
  issuer: 'https://shop.example',
  target: 'https://shop.example/privacy',
  scope: 'newsletter',
  action: false,
  token: 'ABC123',
  createdAt: new Date('2026-11-20T10:15:30.987Z'),
};
const spec: SpecDetails = {
  id: 's1',
  version: 2,
  data: 'e-mail',
  purpose: 'newsletter',
  action: 'collect',
  sensitive: false,
  legalBasis: 'LEGITIMATE_INTEREST',
  externalHref: '',
  location: '',
  groupName: '',
  groupPurpose: '',
  archived: false,
};

describe('specIdOfTarget', () => {
  it('recognises this installation’s spec URLs and urn:accord:dpspec, nothing else', () => {
    expect(specIdOfTarget('https://accord.example/dataprocessing/v0/dpspecs/abc123', 'https://accord.example')).toBe('abc123');
    expect(specIdOfTarget('https://accord.example/dataprocessing/v0/dpspecs/abc123/', 'https://accord.example/')).toBe('abc123');
    expect(specIdOfTarget('urn:accord:dpspec:abc123', 'https://accord.example')).toBe('abc123');
    expect(specIdOfTarget('https://other.example/dataprocessing/v0/dpspecs/abc123', 'https://accord.example')).toBeUndefined();
    expect(specIdOfTarget('https://accord.example/dataprocessing/v0/dpspecs/abc/texts', 'https://accord.example')).toBeUndefined();
    expect(specIdOfTarget('https://shop.example/privacy', 'https://accord.example')).toBeUndefined();
  });
});

describe('receiptClaims', () => {
  it('maps the event to Kantara v1.1.0 fields with seconds and the subject as PII principal', () => {
    const c = receiptClaims(ev, undefined, settings, { kty: 'EC' });
    expect(c).toMatchObject({
      version: 'KI-CR-v1.1.0',
      jurisdiction: 'EU',
      consentTimestamp: 1795169730,
      consentReceiptID: ev.id,
      language: 'en',
      piiPrincipalId: 'user-1',
      policyUrl: ev.target,
      sensitive: false,
      spiCat: [],
      iat: 1795169730,
      accord: { action: false, scope: 'newsletter', token: 'ABC123' },
    });
    expect(c.services).toEqual([{ service: ev.target, purposes: [expect.objectContaining({ purpose: 'newsletter', consentType: 'EXPLICIT' })] }]);
  });

  it('uses the spec for purpose, data category and legal basis; a group name names the service; a non-URL target gets a policy URL of the event', () => {
    const c = receiptClaims({ ...ev, target: 'urn:accord:dpspec:s1' }, { ...spec, groupName: 'Marketing' }, settings, { kty: 'EC' });
    expect(c.services).toEqual([
      {
        service: 'Marketing',
        purposes: [expect.objectContaining({ purpose: 'newsletter', piiCategory: ['e-mail'], legalBasis: 'LEGITIMATE_INTEREST', processingAction: 'collect' })],
      },
    ]);
    expect(c.policyUrl).toBe(`https://accord.example/consent/v0/consents/${ev.id}`);
  });

  it('lists the data as a special category when the spec is sensitive', () => {
    expect(receiptClaims(ev, { ...spec, sensitive: true }, settings, { kty: 'EC' })).toMatchObject({ sensitive: true, spiCat: ['e-mail'] });
  });

  it('carries the signals of the event as `accord` extension claims, and none for an event without', () => {
    const signals = {
      gpc: true,
      jurisdiction: 'US-CA',
      tcString: 'CQ',
      tcf: { version: 2, policyVersion: 5, cmpId: 10, cmpVersion: 2, purposes: [1, 3], legitimateInterests: [2], specialFeatures: [] },
      addtlConsent: '2~1~dv.2',
      gppString: 'DBABzw~1YYN',
      gpp: { sections: ['uspv1'], saleOptOut: true },
    };
    const claims = receiptClaims({ ...ev, ...signals }, spec, settings, { kty: 'EC' });
    expect(claims.accord).toMatchObject(signals);
    // the Kantara `jurisdiction` stays the controller's
    expect(claims.jurisdiction).toBe(settings.jurisdiction);
    const plain = receiptClaims(ev, spec, settings, { kty: 'EC' }).accord as Record<string, unknown>;
    for (const f of Object.keys(signals)) expect(plain).not.toHaveProperty(f);
  });

  it('is deterministic', () => {
    expect(receiptClaims(ev, spec, settings, { kty: 'EC' })).toEqual(receiptClaims({ ...ev }, { ...spec }, { ...settings }, { kty: 'EC' }));
  });
});

describe('signReceipt', () => {
  it.each(['ES256', 'RS256'] as const)('signs with %s and verifies with the public key', async (alg) => {
    const { privateKey, publicKey } =
      alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jws = await signReceipt(receiptClaims(ev, undefined, settings, await exportJWK(publicKey)), { kid: 'k1', alg, privateKey });
    expect(decodeProtectedHeader(jws)).toEqual({ alg, kid: 'k1', typ: 'JWT' });
    const { payload } = await jwtVerify(jws, publicKey);
    expect(payload.consentReceiptID).toBe(ev.id);
  });
});
