import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { status } from '@grpc/grpc-js';
import { GVL, Segment, TCModel, TCString, PurposeRestriction, RestrictionType } from '@iabtechlabtcf/core';
import { consentv1 } from '@accord/proto';
import { createClient, type PromiseClient } from '@accord/common';
import { sleep } from '@accord/testkit';
import { bearer, startStack, type Credentials, type Stack } from './harness';

/**
 * TCF vendor decisions through the whole stack (docs/consent.md, Standards): decision items that
 * name a `vendor` and a `purpose` are answered from the TC string of the state's current event,
 * decoded with the IAB's library, against the Global Vendor List the operator supplies as a file
 * (ACCORD_TCF_GVL, re-read when it changes) — through REST and gRPC, with the bad input refused.
 */
jest.setTimeout(90_000);

const dir = mkdtempSync(path.join(tmpdir(), 'accord-gvl-'));
const GVL_FILE = path.join(dir, 'vendor-list.json');
const ISSUER = 'https://news.example';
const TARGET = 'https://news.example/tcf';

/** A GVL in the IAB's vendor-list.json (v3) format: 755 consents to 1, 3, 4 and uses LI for 2 and 7 (flexible), 42 only LI for 7 (not flexible). */
function gvlJson(version: number) {
  return {
    gvlSpecificationVersion: 3,
    vendorListVersion: version,
    tcfPolicyVersion: 5,
    lastUpdated: '2026-11-01T00:00:00Z',
    purposes: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i + 1, { id: i + 1, name: `Purpose ${i + 1}`, description: '', illustrations: [] }])),
    specialPurposes: {},
    features: {},
    specialFeatures: {},
    stacks: {},
    dataCategories: {},
    vendors: {
      755: {
        id: 755,
        name: 'Vendor 755',
        purposes: [1, 3, 4],
        legIntPurposes: [2, 7],
        flexiblePurposes: [2, 7],
        specialPurposes: [],
        features: [],
        specialFeatures: [],
      },
      42: { id: 42, name: 'Vendor 42', purposes: [], legIntPurposes: [7], flexiblePurposes: [], specialPurposes: [], features: [], specialFeatures: [] },
      ...(version > 1
        ? { 99: { id: 99, name: 'Vendor 99', purposes: [1], legIntPurposes: [], flexiblePurposes: [], specialPurposes: [], features: [], specialFeatures: [] } }
        : {}),
    },
  };
}

/** A TC string as a CMP would write it, with the disclosedVendors segment TCF 2.3 requires. */
function tcString(opts: {
  purposes: number[];
  vendors: number[];
  liPurposes?: number[];
  liVendors?: number[];
  disclosed?: number[];
  restrictions?: Array<[number, RestrictionType, number]>;
}): string {
  const m = new TCModel(new GVL(gvlJson(2) as never));
  m.cmpId = 10;
  m.cmpVersion = 1;
  m.isServiceSpecific = true;
  m.purposeConsents.set(opts.purposes);
  m.vendorConsents.set(opts.vendors);
  m.purposeLegitimateInterests.set(opts.liPurposes ?? []);
  m.vendorLegitimateInterests.set(opts.liVendors ?? []);
  m.vendorsDisclosed.set(opts.disclosed ?? [755, 42, 99]);
  for (const [purpose, type, vendor] of opts.restrictions ?? []) m.publisherRestrictions.add(vendor, new PurposeRestriction(purpose, type));
  return TCString.encode(m, { segments: [Segment.CORE, Segment.VENDORS_DISCLOSED] });
}

let stack: Stack;
let acme: Credentials;
let token: string;
let consent: PromiseClient<typeof consentv1.ConsentServiceService>;

beforeAll(async () => {
  // the file is written by the first test: until then the deployment has no readable GVL
  stack = await startStack('decisionstcf', { env: { ACCORD_TCF_GVL: GVL_FILE } });
  acme = await stack.bootstrap({ account: 'acme-tcf', app: 'web', scopes: ['consent'] });
  token = await stack.token(acme, 'consent');
  consent = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { retries: 0 });
}, 120_000);
afterAll(async () => {
  consent?.close();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const decide = (json: unknown) => stack.request('POST', '/consent/v0/decisions', { token, apiKey: acme.apiKey, json });
const record = (subject: string, tc: string | undefined) =>
  stack.request('POST', '/consent/v0/consents', {
    token,
    apiKey: acme.apiKey,
    json: { subject, issuer: ISSUER, target: TARGET, action: true, ...(tc ? { tcString: tc } : {}) },
  });
const item = (subject: string, vendor: number, purpose: number) => ({ subject, issuer: ISSUER, target: TARGET, vendor, purpose });

describe('TCF vendor decisions', () => {
  test('without a Global Vendor List a vendor question is a 400 naming the field; plain items still decide', async () => {
    const res = await decide({ items: [{ subject: 's', issuer: ISSUER, target: TARGET }, item('s', 755, 1)] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: '/items/1/vendor', message: expect.stringContaining('ACCORD_TCF_GVL') }]);
    expect((await decide({ items: [{ subject: 's', issuer: ISSUER, target: TARGET }] })).status).toBe(200);
    writeFileSync(GVL_FILE, JSON.stringify(gvlJson(1)));
    await sleep(1100); // the file is looked at once a second at most
  });

  test('every basis from the current TC string, with the event as evidence and the GVL version used', async () => {
    const full = await record('reader', tcString({ purposes: [1, 3], vendors: [755], liPurposes: [2, 7], liVendors: [755, 42] }));
    expect(full.status).toBe(201);
    await record('objector', tcString({ purposes: [1], vendors: [755], liPurposes: [], liVendors: [] }));
    await record(
      'restricted',
      tcString({
        purposes: [1, 3, 4],
        vendors: [755],
        restrictions: [
          [3, RestrictionType.NOT_ALLOWED, 755],
          [7, RestrictionType.REQUIRE_CONSENT, 755],
        ],
      }),
    );
    await record('undisclosed', tcString({ purposes: [1], vendors: [755], disclosed: [42] }));
    await record('no-string', undefined);
    const res = await decide({
      items: [
        item('reader', 755, 1), // purpose and vendor consent
        item('reader', 755, 2), // legitimate interest, not objected to
        item('reader', 755, 4), // purpose 4 not consented
        item('reader', 42, 7), // LI-only vendor, LI kept
        item('reader', 755, 11), // not declared for purpose 11
        item('objector', 755, 7), // objected to legitimate interest
        item('restricted', 755, 3), // publisher forbids purpose 3
        item('restricted', 755, 7), // publisher requires consent; flexible vendor, purpose 7 not consented
        item('undisclosed', 755, 1), // not in disclosedVendors
        item('no-string', 755, 1),
        item('nobody', 755, 1),
        item('reader', 99, 1), // not in this GVL (version 1)
      ],
    });
    expect(res.status).toBe(200);
    const got = (res.body.decisions as Array<{ allowed: boolean; basis: string; gvlVersion: number }>).map((d) => [d.allowed, d.basis]);
    expect(got).toEqual([
      [true, 'tcf-consent'],
      [true, 'tcf-legitimate-interest'],
      [false, 'tcf-refused'],
      [true, 'tcf-legitimate-interest'],
      [false, 'tcf-refused'],
      [false, 'tcf-refused'],
      [false, 'tcf-restricted'],
      [false, 'tcf-refused'],
      [false, 'tcf-refused'],
      [false, 'no-tc-string'],
      [false, 'no-tc-string'],
      [false, 'tcf-refused'],
    ]);
    expect(res.body.decisions[0]).toMatchObject({
      vendor: 755,
      purpose: 1,
      gvlVersion: 1,
      eventId: full.body.id,
      evidence: { receipt: expect.stringContaining(full.body.id) },
    });
    expect(res.body.decisions[10]).not.toHaveProperty('eventId');

    // a new GVL file is read when it changes: vendor 99 joins in version 2
    writeFileSync(GVL_FILE, JSON.stringify(gvlJson(2)));
    await sleep(1100);
    const again = await decide({ items: [item('reader', 99, 1)] });
    expect(again.body.decisions[0]).toMatchObject({ allowed: false, basis: 'tcf-refused', gvlVersion: 2 }); // listed now, but no consent in the string
    await record('reader', tcString({ purposes: [1], vendors: [755, 99] }));
    expect((await decide({ items: [item('reader', 99, 1)] })).body.decisions[0]).toMatchObject({ allowed: true, basis: 'tcf-consent', gvlVersion: 2 });
  });

  test('through gRPC Decide the same answers, and a plain item beside them keeps its own rule', async () => {
    const out = await consent.decide(
      { accountId: acme.accountId, items: [{ ...item('reader', 755, 1) }, { subject: 'reader', issuer: ISSUER, target: TARGET }] },
      { metadata: bearer(token) },
    );
    expect(out.decisions[0]).toMatchObject({ allowed: true, basis: 'tcf-consent', vendor: 755, purpose: 1, gvlVersion: 2 });
    expect(out.decisions[1]).toMatchObject({ allowed: true, basis: 'consent' });
    expect(out.decisions[1]!.vendor).toBeUndefined();
  });

  test('a vendor or purpose out of range, or one without the other, is a 400 naming the field (REST and gRPC)', async () => {
    const res = await decide({
      items: [item('s', 0, 1), item('s', 65_536, 1), item('s', 755, 12), { subject: 's', issuer: ISSUER, target: TARGET, vendor: 755 }],
    });
    expect(res.status).toBe(400);
    expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(
      expect.arrayContaining(['/items/0/vendor', '/items/1/vendor', '/items/2/purpose']),
    );
    const one = await stack.request(
      'GET',
      `/consent/v0/decisions?subject=s&issuer=${encodeURIComponent(ISSUER)}&target=${encodeURIComponent(TARGET)}&vendor=755`,
      {
        token,
        apiKey: acme.apiKey,
      },
    );
    expect(one.status).toBe(400);
    expect(JSON.stringify(one.body.errors)).toContain('purpose');
    await expect(consent.decide({ accountId: acme.accountId, items: [{ ...item('s', 70_000, 1) }] }, { metadata: bearer(token) })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('/items/0/vendor'),
    });
    const ok = await stack.request(
      'GET',
      `/consent/v0/decisions?subject=reader&issuer=${encodeURIComponent(ISSUER)}&target=${encodeURIComponent(TARGET)}&vendor=755&purpose=1`,
      {
        token,
        apiKey: acme.apiKey,
      },
    );
    expect(ok.body).toMatchObject({ allowed: true, basis: 'tcf-consent', vendor: 755, purpose: 1, gvlVersion: 2 });
  });
});
