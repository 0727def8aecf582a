/**
 * Consent signals and regimes through the gateway (issue 26; docs/consent.md, "Signals and
 * regimes"): gpc, TC and GPP strings and jurisdictions on events, Sec-GPC, regimes on
 * specifications, the views per jurisdiction and GPC signal, the trusted geo header, statistics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createLogger } from '@accord/common';
import { eventually, START, startReceiver } from '@accord/testkit';
import { startStack, type Credentials, type Stack } from './harness';
import { proofOf, verifyFiles, writeIn } from './log-proofs';

jest.setTimeout(90_000);

/** Made with the IAB encoders (services/consent/src/domain/signals.test.ts): TCF 2.3 (policy 5), CMP 10 v2, purposes 1 3 4, LI 2 7, special feature 1. */
const TC = 'CQuMEMAQuMEMAAKACAENCWFoALAAAEIAAAYgAAoAAAAA.IAAA.YAAAAAAAAAAA';
const TCF = { version: 2, policyVersion: 5, cmpId: 10, cmpVersion: 2, purposes: [1, 3, 4], legitimateInterests: [2, 7], specialFeatures: [1] };
/** uspv1 (sale opted out), usnat (sale and sharing opted out, targeted advertising not), usca (sale opted out). */
const GPP = 'DBABzYA~1YYN~CEAWAAAAAABA.QA~BAQAAABA.QA';
const GPP_FACTS = { sections: ['uspv1', 'usnat', 'usca'], saleOptOut: true, sharingOptOut: true, targetedAdvertisingOptOut: false };
/** A TCF v1 consent string (the IAB's v1 example). */
const TCF_V1 = 'BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA';

let stack: Stack;
let acme: Credentials;
let token: string;
let dpToken: string;
let hooksToken: string;
let dir: string;
/** A second gateway on the same services, with ACCORD_GEO_HEADER=CF-IPCountry. */
let geoGateway: { port: number; stop(): Promise<void> };

beforeAll(async () => {
  stack = await startStack('signals');
  acme = await stack.bootstrap({ account: 'acme-signals', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
  token = await stack.token(acme, 'consent');
  dpToken = await stack.token(acme, 'dataprocessing');
  hooksToken = await stack.token(acme, 'webhooks');
  geoGateway = await START.gateway(
    { ...stack.env, ACCORD_SERVICE_KEY: stack.secrets.serviceKeys.gateway, ACCORD_GATEWAY_PORT: '0', ACCORD_GEO_HEADER: 'CF-IPCountry' },
    createLogger('gateway-geo', stack.env.LOG_LEVEL),
  );
  dir = mkdtempSync(join(tmpdir(), 'accord-e2e-signals-'));
}, 120_000);
afterAll(async () => {
  await geoGateway?.stop();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const consent = (method: string, path: string, o: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  stack.request(method, `/consent/v0${path}`, { token, apiKey: acme.apiKey, ...o });
const dp = (method: string, path: string, json?: unknown) =>
  stack.request(method, `/dataprocessing/v0${path}`, { token: dpToken, ...(json !== undefined ? { json } : {}) });
const ev = (over: Record<string, unknown> = {}) => ({ subject: 'user-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', ...over });
const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();

describe('signals on consent events', () => {
  test('round-trip: the POST answer, GET, search, the subject export (history and current states), the webhook, the receipt claims and the log proof all carry them', async () => {
    const rx = await startReceiver();
    try {
      const hook = await stack.request('POST', '/webhooks/v0', { token: hooksToken, json: { url: rx.url, events: ['consent'] } });
      expect(hook.status).toBe(201);
      const posted = await consent('POST', '/consents', {
        json: ev({ subject: 'round-trip', action: true, gpc: true, tcString: TC, gppString: GPP, jurisdiction: 'us-ca' }),
      });
      expect(posted.status).toBe(201);
      const signals = { gpc: true, tcString: TC, tcf: TCF, gppString: GPP, gpp: GPP_FACTS, jurisdiction: 'US-CA' };
      expect(posted.body).toMatchObject(signals);
      const id = posted.body.id as string;

      expect((await consent('GET', `/consents/${id}`)).body).toEqual(posted.body);
      const who = { subject: 'round-trip', issuer: 'https://shop.example', target: 'https://shop.example/privacy' };
      expect((await consent('GET', `/consents/search?${qs(who)}`)).body).toEqual([posted.body]);
      expect((await consent('GET', `/consents/search?${qs({ ...who, current: 'true' })}`)).body).toEqual([posted.body]);
      const exported = await consent('GET', `/consents/export?${qs({ subject: 'round-trip' })}`, { headers: { accept: 'application/json' } });
      expect(exported.status).toBe(200);
      // one subject's export (the JSON form): its history and its current states carry the signals
      expect(exported.body).toMatchObject({ subject: 'round-trip', events: [posted.body], current: [posted.body] });

      await eventually(() => rx.received.length >= 1, 15_000, 'the consent delivery');
      expect(rx.bodies()[0]).toEqual({ type: 'consent', text: expect.any(String), data: posted.body });

      const receipt = (await consent('GET', `/consents/${id}/receipt`)).body.receipt as string;
      const { payload } = await jwtVerify(receipt, createRemoteJWKSet(new URL(`${stack.baseUrl}/.well-known/jwks.json`)));
      expect(payload.accord).toMatchObject(signals);

      // the leaf is the event as POST answered it: the offline verifier recomputes it from that JSON
      const proof = await proofOf((m, p) => consent(m, p.replace(/^\/consent\/v0/, '')), id);
      const head = await consent('GET', `/log/tree-head`);
      const p = await consent('GET', `/consents/${id}/proof?treeSize=${head.body.treeSize}`);
      expect(p.body.leafHash).toBe(proof.leafHash);
      const write = writeIn(dir);
      const files = {
        receipt: write('r.jwt', (await consent('GET', `/consents/${id}/receipt`)).body.receipt),
        proof: write('p.json', p.body),
        head: write('h.json', head.body),
        jwks: write('jwks.json', (await stack.request('GET', '/.well-known/jwks.json')).body),
        event: write('e.json', posted.body),
      };
      const verified = await verifyFiles(files);
      expect(verified.out).toMatch(/the event is the receipt's, and its RFC 8785 leaf is the proven leaf/);
      expect(verified.code).toBe(0);
      // the same event without its signals is not the proven leaf
      const stripped = Object.fromEntries(
        Object.entries(posted.body).filter(([k]) => !['gpc', 'tcString', 'tcf', 'gppString', 'gpp', 'jurisdiction'].includes(k)),
      );
      const bad = await verifyFiles({ ...files, event: write('e2.json', stripped) });
      expect(bad.code).not.toBe(0);
    } finally {
      await rx.close();
    }
  });

  test('an event without signals answers none of the fields (earlier leaves and proofs are unchanged)', async () => {
    const posted = await consent('POST', '/consents', { json: ev({ subject: 'plain', action: true }) });
    for (const f of ['gpc', 'tcString', 'tcf', 'gppString', 'gpp', 'jurisdiction']) expect(posted.body).not.toHaveProperty(f);
  });

  test('Sec-GPC: 1 sets gpc on every event of the request that does not say; the body wins; other values mean nothing', async () => {
    const arr = await consent('POST', '/consents', {
      json: [ev({ subject: 'gpc-h', scope: 'a' }), ev({ subject: 'gpc-h', scope: 'b', gpc: false }), ev({ subject: 'gpc-h', scope: 'c', action: true })],
      headers: { 'Sec-GPC': '1' },
    });
    expect(arr.status).toBe(201);
    expect(arr.body.map((e: { gpc?: boolean }) => e.gpc)).toEqual([true, false, true]);
    const one = await consent('POST', '/consents', { json: ev({ subject: 'gpc-h1' }), headers: { 'Sec-GPC': '1' } });
    expect(one.body).toMatchObject({ gpc: true, action: null });
    const form = await consent('POST', '/consents', {
      form: { ...ev({ subject: 'gpc-form' }), jurisdiction: 'de', action: 'false' },
      headers: { 'Sec-GPC': '1' },
    });
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ gpc: true, jurisdiction: 'DE', action: false });
    const formSays = await consent('POST', '/consents', { form: { ...ev({ subject: 'gpc-form' }), gpc: 'false' }, headers: { 'Sec-GPC': '1' } });
    expect(formSays.body.gpc).toBe(false);
    const other = await consent('POST', '/consents', { json: ev({ subject: 'gpc-h0' }), headers: { 'Sec-GPC': '0' } });
    expect(other.body).not.toHaveProperty('gpc');
  });

  test('search filters on gpc and jurisdiction', async () => {
    await consent('POST', '/consents', {
      json: [ev({ subject: 'filter', action: true, jurisdiction: 'DE' }), ev({ subject: 'filter', gpc: true, jurisdiction: 'US-CA' })],
    });
    const who = { subject: 'filter', issuer: 'https://shop.example', target: 'https://shop.example/privacy' };
    expect((await consent('GET', `/consents/search?${qs({ ...who, gpc: 'true' })}`)).body.map((e: { jurisdiction: string }) => e.jurisdiction)).toEqual([
      'US-CA',
    ]);
    expect((await consent('GET', `/consents/search?${qs({ ...who, jurisdiction: 'de' })}`)).body.map((e: { action: boolean }) => e.action)).toEqual([true]);
    expect((await consent('GET', `/consents/search?${qs({ ...who, current: 'true', jurisdiction: 'DE' })}`)).body).toEqual([]);
    const bad = await consent('GET', `/consents/search?${qs({ ...who, jurisdiction: 'ZZ' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'jurisdiction', message: expect.stringMatching(/ISO 3166/) }]);
  });

  test.each([
    ['a TC string that does not decode', { tcString: 'CPXxRfA' }, '/tcString', /does not decode/],
    ['a TCF v1 string', { tcString: TCF_V1 }, '/tcString', /TCF v1/],
    ['a TC string over 10,000 characters', { tcString: `C${'A'.repeat(10_000)}` }, '/tcString', /10000/],
    ['a GPP string that does not decode', { gppString: 'DBABMA~' }, '/gppString', /does not decode/],
    ['a GPP string over 10,000 characters', { gppString: `D${'A'.repeat(10_000)}` }, '/gppString', /10000/],
    ['an unknown jurisdiction', { jurisdiction: 'ZZ' }, '/jurisdiction', /ISO 3166/],
    ['a jurisdiction that is no code', { jurisdiction: 'California' }, '/jurisdiction', /ISO 3166/],
    ['a gpc that is no boolean', { gpc: 'yes' }, '/gpc', /boolean/],
  ])('%s is a 400 naming the field', async (_, bad, field, message) => {
    const res = await consent('POST', '/consents', { json: ev({ subject: 'bad', ...bad }) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test('an array with one bad event stores none of it, the path names the event; a bad form value is named too', async () => {
    const res = await consent('POST', '/consents', { json: [ev({ subject: 'batch-bad', action: true }), ev({ subject: 'batch-bad', gppString: 'garbage' })] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: '/1/gppString', message: expect.stringMatching(/GPP/) }]);
    const stored = await consent(
      'GET',
      `/consents/search?${qs({ subject: 'batch-bad', issuer: 'https://shop.example', target: 'https://shop.example/privacy' })}`,
    );
    expect(stored.body).toEqual([]);
    const form = await consent('POST', '/consents', { form: { ...ev({ subject: 'form-bad' }), gpc: 'maybe', tcString: TCF_V1 } });
    expect(form.status).toBe(400);
    expect(form.body.errors).toEqual([{ field: '/gpc', message: 'must be one of: true, false' }]);
  });

  test('statistics count the GPC-driven declines and the events by jurisdiction', async () => {
    const before = (await consent('GET', '/consents/statistics')).body;
    await consent('POST', '/consents', {
      json: [
        ev({ subject: 'st-1', gpc: true, jurisdiction: 'US-CO' }),
        ev({ subject: 'st-2', gpc: true, action: true, jurisdiction: 'US-CO' }),
        ev({ subject: 'st-3', jurisdiction: 'FR' }),
      ],
    });
    const after = (await consent('GET', '/consents/statistics')).body;
    expect(after.gpcDeclines - before.gpcDeclines).toBe(1);
    const count = (s: { jurisdictions: Array<{ jurisdiction: string; events: number }> }, j: string) =>
      s.jurisdictions.find((x) => x.jurisdiction === j)?.events ?? 0;
    expect(count(after, 'US-CO') - count(before, 'US-CO')).toBe(2);
    expect(count(after, 'FR') - count(before, 'FR')).toBe(1);
    const target = after.targets.find((t: { target: string }) => t.target === 'https://shop.example/privacy');
    expect(target.currentGpcDeclines).toBeGreaterThanOrEqual(1);
  });
});

describe('regimes on specifications and the views', () => {
  let groupId: string;
  let spec: Record<string, unknown>;
  let plain: Record<string, unknown>;

  beforeAll(async () => {
    groupId = (await dp('POST', '/dpgroups', { name: 'Ads' })).body.id;
    const created = await dp('POST', `/dpgroups/${groupId}/specs`, {
      data: 'browsing',
      purpose: 'targeted advertising',
      action: 'use',
      regimes: { US: { model: 'opt-out' }, 'us-ca': { model: 'opt-out', gpc: 'opt-out' }, DE: { model: 'notice' } },
    });
    expect(created.status).toBe(201);
    spec = created.body;
    plain = (await dp('POST', `/dpgroups/${groupId}/specs`, { data: 'e-mail', purpose: 'news', action: 'use' })).body;
  });

  test('are answered normalised, a change is material, the same map written otherwise makes no version, bad ones are 400s naming each', async () => {
    const optIn = { model: 'opt-in', gpc: 'ignore' };
    expect(spec.regimes).toEqual({
      '*': optIn,
      DE: { model: 'notice', gpc: 'ignore' },
      US: { model: 'opt-out', gpc: 'ignore' },
      'US-CA': { model: 'opt-out', gpc: 'opt-out' },
    });
    expect(plain.regimes).toEqual({ '*': optIn });
    const other = (await dp('POST', `/dpgroups/${groupId}/specs`, { data: 'x', purpose: 'y', action: 'use' })).body;
    const changed = await dp('PATCH', `/dpspecs/${other.id}`, { regimes: { FR: { model: 'opt-out' } } });
    expect(changed.body).toMatchObject({ version: 2, reconsentSince: 2, regimes: { '*': optIn, FR: { model: 'opt-out', gpc: 'ignore' } } });
    const same = await dp('PATCH', `/dpspecs/${other.id}`, { regimes: { fr: { model: 'opt-out', gpc: 'ignore' }, '*': { model: 'opt-in' } } });
    expect(same.body.version).toBe(2);
    const reset = await dp('PATCH', `/dpspecs/${other.id}`, { regimes: null });
    expect(reset.body).toMatchObject({ version: 3, reconsentSince: 3, regimes: { '*': optIn } });

    const bad = await dp('PATCH', `/dpspecs/${other.id}`, { regimes: { ZZ: { model: 'opt-in' }, IT: { model: 'notice', gpc: 'opt-out' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/regimes/IT/gpc', '/regimes/ZZ']);
    const badModel = await dp('PATCH', `/dpspecs/${other.id}`, { regimes: { US: { model: 'maybe' }, 'not a code': { model: 'opt-in' } } });
    expect(badModel.status).toBe(400);
    expect(badModel.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['/regimes/US/model', '/regimes/not a code']);
  });

  test('the consent request answers per item the regime, the pre-selection and whether GPC was applied, per jurisdiction and gpc', async () => {
    const view = async (q: Record<string, string>) => {
      const res = await dp('GET', `/dpgroups/${groupId}/consent-request?${qs(q)}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const item = (body: { items: Array<{ specId: string }> }, s: Record<string, unknown>) => body.items.find((i) => i.specId === s.id);
    const ca = await view({ jurisdiction: 'US-CA', gpc: 'true' });
    expect(ca).toMatchObject({ jurisdiction: 'US-CA', gpc: true });
    expect(item(ca, spec)).toMatchObject({ regime: { key: 'US-CA', model: 'opt-out', gpc: 'opt-out' }, preselected: false, gpcApplied: true });
    expect(item(ca, plain)).toMatchObject({ regime: { key: '*', model: 'opt-in' }, preselected: false, gpcApplied: false });
    expect(item(await view({ jurisdiction: 'US-CA' }), spec)).toMatchObject({ preselected: true, gpcApplied: false });
    // Texas: the US regime, which ignores GPC: no GPC consent invented
    expect(item(await view({ jurisdiction: 'US-TX', gpc: 'true' }), spec)).toMatchObject({ regime: { key: 'US' }, preselected: true, gpcApplied: false });
    expect(item(await view({ jurisdiction: 'DE' }), spec)).toMatchObject({ regime: { key: 'DE', model: 'notice' }, preselected: null });
    const none = await view({});
    expect(none).toMatchObject({ jurisdiction: null, gpc: false });
    expect(item(none, spec)).toMatchObject({ regime: { key: '*' }, preselected: false });
    const bad = await dp('GET', `/dpgroups/${groupId}/consent-request?${qs({ jurisdiction: 'ZZ' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'jurisdiction', message: expect.stringMatching(/ISO 3166/) }]);
    expect((await dp('GET', `/dpgroups/${groupId}/consent-request?${qs({ gpc: 'maybe' })}`)).status).toBe(400);
  });

  test('the dashboard: an explicit choice made with the signal on stands; one made before gives way to the signal where the regime honours it', async () => {
    const target = spec.target as string;
    const dash = async (subject: string, q: Record<string, string>) => {
      const res = await dp('GET', `/dpgroups/${groupId}/dashboard?${qs({ subject, issuer: 'https://shop.example', ...q })}`);
      expect(res.status).toBe(200);
      return res.body.items.find((i: { specId: string }) => i.specId === spec.id);
    };
    await consent('POST', '/consents', { json: { subject: 'dash-with', issuer: 'https://shop.example', target, action: true }, headers: { 'Sec-GPC': '1' } });
    await consent('POST', '/consents', { json: { subject: 'dash-before', issuer: 'https://shop.example', target, action: true } });
    const withSignal = await dash('dash-with', { jurisdiction: 'US-CA', gpc: 'true' });
    expect(withSignal).toMatchObject({ state: 'accepted', preselected: true, gpcApplied: false });
    expect(withSignal.scopes[0]).toMatchObject({ gpc: true });
    expect(await dash('dash-before', { jurisdiction: 'US-CA', gpc: 'true' })).toMatchObject({ state: 'accepted', preselected: false, gpcApplied: true });
    expect(await dash('dash-before', { jurisdiction: 'US-CA' })).toMatchObject({ preselected: true, gpcApplied: false });
    // the web components record the signal once: it keeps declining after the browser stops sending it
    await consent('POST', '/consents', {
      json: { subject: 'dash-before', issuer: 'https://shop.example', target, jurisdiction: 'US-CA' },
      headers: { 'Sec-GPC': '1' },
    });
    expect(await dash('dash-before', { jurisdiction: 'US-CA' })).toMatchObject({ state: 'no_action', preselected: false, gpcApplied: true });
  });

  test('the geo header: read only where ACCORD_GEO_HEADER names it, the query first, codes outside the ISO lists ignored', async () => {
    const path = `/dataprocessing/v0/dpgroups/${groupId}/consent-request`;
    const viaGeo = async (query: string, country: string) => {
      const res = await fetch(`http://127.0.0.1:${geoGateway.port}${path}${query}`, {
        headers: { authorization: `Bearer ${dpToken}`, 'CF-IPCountry': country },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')).toMatch(/CF-IPCountry/i);
      return (await res.json()) as { jurisdiction: string | null; items: Array<{ specId: string; regime: { key: string } }> };
    };
    const us = await viaGeo('', 'US');
    expect(us.jurisdiction).toBe('US');
    expect(us.items.find((i) => i.specId === spec.id)!.regime.key).toBe('US');
    expect((await viaGeo('?jurisdiction=DE', 'US')).jurisdiction).toBe('DE');
    expect((await viaGeo('', 'XX')).jurisdiction).toBeNull();
    expect((await viaGeo('', 'T1')).jurisdiction).toBeNull();
    // the main gateway has no ACCORD_GEO_HEADER: a client's header is not read
    const off = await stack.request('GET', path, { token: dpToken, headers: { 'CF-IPCountry': 'US' } });
    expect(off.body.jurisdiction).toBeNull();
    expect(off.body.items.find((i: { specId: string }) => i.specId === spec.id).regime.key).toBe('*');
  });
});
