/**
 * The isolation and authorization matrix, generated from the OpenAPI document so that a new
 * endpoint is covered without touching this file:
 * - every operation with an id in its path, called by another account (and, for per-application
 *   data, another application of the same account) with the owner's ids, answers exactly what a
 *   missing id of the same form answers (status and body): it learns nothing;
 * - every secured operation refuses a missing, unsigned (`alg: none`), expired, foreign-key,
 *   wrong-issuer or wrong-audience token with 401, and a token without its API's scope with 403.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { buildDocument } from '../services/gateway/src/openapi';
import { startStack, type Credentials, type HttpResult, type Stack } from './harness';

type Op = { method: string; template: string; bodySchema?: string; perApp: boolean };
const doc = buildDocument('http://localhost') as {
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: Record<string, { schema?: { $ref?: string } }> } }>>;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const secured: Op[] = Object.entries(doc.paths).flatMap(([template, item]) =>
  // The console API authenticates with its session cookie and CSRF header, not bearer tokens: its
  // isolation and roles are tested in services/gateway/test/console.test.ts.
  METHODS.filter((m) => item[m] && (item[m]!.security ?? [{}]).length > 0 && !template.startsWith('/oauth/') && !template.startsWith('/console/'))
    .filter((m) => JSON.stringify(item[m]!.security) !== '[]')
    .map((m) => ({
      method: m.toUpperCase(),
      template,
      bodySchema: item[m]!.requestBody?.content['application/json']?.schema?.$ref?.split('/').pop(),
      // statistics and webhooks belong to an application, everything else to the account
      perApp: template.startsWith('/webhooks/') || template.endsWith('/statistics'),
    })),
);

/** A valid body per request schema (so that the ownership check, not validation, decides). */
const BODIES: Record<string, unknown> = {
  ConsentCreateRequest: { subject: 's', issuer: 'i', target: 't', action: true },
  ConsentEraseRequest: { subject: 's' },
  DpGroupInput: { name: 'N', description: 'd', purpose: 'p' },
  DpSpecCreateRequest: { data: 'e-mail', purpose: 'newsletter', action: 'use' },
  DpSpecPutRequest: { data: 'e-mail', purpose: 'newsletter', action: 'use' },
  DpSpecPatchRequest: { purpose: 'weekly' },
  DpTextCreateRequest: { value: 'x', language: 'de' },
  DpTextPatchRequest: { value: 'y' },
  WebhookCreateRequest: { url: 'https://hooks.example.com/matrix', events: ['consent'] },
  WebhookUpdateRequest: { disabled: true },
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** Ids of the same form as real ones that name nothing. */
const missing: Record<string, () => string> = {
  id: () => hex(16),
  token: () => 'ZZ' + hex(2).toUpperCase(),
  group_id: () => hex(12),
  spec_id: () => hex(12),
  text_id: () => '9999',
  n: () => '9999',
  deliveryId: () => `dlv_${hex(12)}`,
};

const keyOf = (template: string, name: string) => (name === 'id' && template.startsWith('/webhooks/') ? 'webhookId' : name);
const fill = (template: string, ids: Record<string, string>) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = ids[keyOf(template, name)];
    if (v === undefined) throw new Error(`no id for {${name}} in ${template}: add one to the matrix`);
    return v;
  });
/** The ids a path of this template carries, by name. */
const idsIn = (template: string, ids: Record<string, string>) =>
  Object.fromEntries([...template.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name!, ids[keyOf(template, name!)]!]));
/** What a caller can see of an answer, minus what differs per request (its request id, and the ids it sent, echoed). */
const visible = (r: HttpResult, sent: Record<string, string>) => {
  let text = JSON.stringify(typeof r.body === 'object' ? { ...r.body, instance: undefined, requestId: undefined } : r.body);
  for (const [name, id] of Object.entries(sent)) text = text.split(id).join(`<${name}>`);
  return { status: r.status, body: JSON.parse(text) as unknown };
};

describe('isolation and authorization, for every operation of the OpenAPI document', () => {
  let stack: Stack;
  let owner: Credentials;
  let ownerToken: string;
  const ids: Record<string, string> = {};
  const missingIds: Record<string, string> = {};
  const callers: Record<string, { creds: Credentials; token: string }> = {};
  const call = (op: Op, path: string, c: { creds: Credentials; token: string }) =>
    stack.request(op.method, path, { token: c.token, apiKey: c.creds.apiKey, json: op.bodySchema ? BODIES[op.bodySchema] : undefined });

  beforeAll(async () => {
    stack = await startStack('matrix');
    const all = ['consent', 'dataprocessing', 'webhooks'];
    owner = await stack.bootstrap({ account: 'owner', app: 'web', scopes: all });
    ownerToken = await stack.token(owner, all.join(' '));
    const other = await stack.bootstrap({ account: 'intruder', app: 'web', scopes: all });
    const sibling = await stack.bootstrap({ account: 'owner', app: 'mobile', scopes: all });
    callers['another account'] = { creds: other, token: await stack.token(other, all.join(' ')) };
    callers['another application of the account'] = { creds: sibling, token: await stack.token(sibling, all.join(' ')) };

    // the owner's resources, one of each kind
    const o = (method: string, path: string, json?: unknown) => stack.request(method, path, { token: ownerToken, apiKey: owner.apiKey, json });
    const ev = (await o('POST', '/consent/v0/consents', { subject: 's', issuer: 'i', target: 't', action: true })).body;
    const group = (await o('POST', '/dataprocessing/v0/dpgroups', BODIES.DpGroupInput)).body;
    const spec = (
      await o('POST', `/dataprocessing/v0/dpgroups/${group.id}/specs`, { ...(BODIES.DpSpecCreateRequest as object), texts: [{ value: 'x', language: 'en' }] })
    ).body;
    const hook = (await o('POST', '/webhooks/v0', BODIES.WebhookCreateRequest)).body;
    const delivery = (await o('POST', `/webhooks/v0/${hook.id}/test`)).body;
    Object.assign(ids, {
      id: ev.id,
      token: ev.token,
      group_id: group.id,
      spec_id: spec.id,
      text_id: String(spec.texts[0].id),
      n: '1',
      webhookId: String(hook.id),
      deliveryId: delivery.id,
    });
    for (const [k, make] of Object.entries(missing)) missingIds[k] = make();
    missingIds.webhookId = String(900_000_000 + Math.floor(Math.random() * 1000));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  const withIds = secured.filter((op) => op.template.includes('{'));

  it('covers every operation with an id in its path', () => {
    expect(withIds.length).toBeGreaterThanOrEqual(25);
  });

  // Another account is kept from every operation; another application of the account only from
  // per-application data (account data is shared by its applications): each case is one that applies.
  const cases = {
    'another account': withIds,
    'another application of the account': withIds.filter((op) => op.perApp),
  };

  it('has per-application operations to try another application of the account on', () => {
    expect(cases['another application of the account'].length).toBeGreaterThanOrEqual(5);
  });

  describe.each(Object.keys(cases) as Array<keyof typeof cases>)('%s', (who) => {
    test.each(cases[who].map((op) => [`${op.method} ${op.template}`, op] as const))("%s with the owner's ids learns nothing", async (_name, op) => {
      const c = callers[who]!;
      const foreign = await call(op, fill(op.template, ids), c);
      const absent = await call(op, fill(op.template, missingIds), c);
      expect(foreign.status).toBeGreaterThanOrEqual(400);
      expect(visible(foreign, idsIn(op.template, ids))).toEqual(visible(absent, idsIn(op.template, missingIds)));
    });
  });

  it("leaves the owner's resources as they were", async () => {
    const o = (path: string) => stack.request('GET', path, { token: ownerToken, apiKey: owner.apiKey });
    expect((await o(`/consent/v0/consents/${ids.id}`)).status).toBe(200);
    expect((await o(`/dataprocessing/v0/dpspecs/${ids.spec_id}`)).body).toMatchObject({ version: 1, purpose: 'newsletter' });
    expect((await o(`/webhooks/v0/${ids.webhookId}`)).body).toMatchObject({ disabled: false });
  });

  describe('tokens that must not pass', () => {
    const bad: Record<string, () => Promise<string | undefined>> = {};
    let claims: Record<string, unknown>;
    let kid: string | undefined;
    const sign = async (payload: Record<string, unknown>, key = createPrivateKey(stack.env.ACCORD_TOKEN_SIGNING_KEYS!.split(/(?=-----BEGIN)/)[0]!)) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', ...(kid ? { kid } : {}) }).sign(key);
    beforeAll(() => {
      claims = decodeJwt(ownerToken);
      kid = decodeProtectedHeader(ownerToken).kid;
      const now = Math.floor(Date.now() / 1000);
      bad.missing = async () => undefined;
      bad['unsigned (alg: none)'] = async () =>
        `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
      bad.expired = () => sign({ ...claims, iat: now - 7200, exp: now - 3600 });
      bad['signed with a foreign key under the real kid'] = () => sign(claims, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
      bad['for another audience'] = () => sign({ ...claims, aud: 'someone-else' });
      bad['from another issuer'] = () => sign({ ...claims, iss: 'https://evil.example/oauth/v0' });
    });

    test.each(secured.map((op) => [`${op.method} ${op.template}`, op] as const))(
      '%s answers 401 to each bad token and 403 without its scope',
      async (_name, op) => {
        const path = fill(op.template, ids);
        const json = op.bodySchema ? BODIES[op.bodySchema] : undefined;
        for (const [kind, make] of Object.entries(bad)) {
          const r = await stack.request(op.method, path, { token: await make(), apiKey: owner.apiKey, json });
          expect(`${kind}: ${r.status}`).toBe(`${kind}: 401`);
        }
        const api = op.template.split('/')[1]!;
        const otherScope = { consent: 'webhooks', dataprocessing: 'consent', webhooks: 'dataprocessing' }[api]!;
        const r = await stack.request(op.method, path, { token: await sign({ ...claims, scope: otherScope }), apiKey: owner.apiKey, json });
        expect(`wrong scope: ${r.status}`).toBe('wrong scope: 403');
      },
    );
  });
});
