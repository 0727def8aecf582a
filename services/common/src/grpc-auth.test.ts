import { generateKeyPairSync } from 'node:crypto';
import { Metadata, status } from '@grpc/grpc-js';
import { exportJWK, SignJWT } from 'jose';
import { KeyStore } from './access-tokens';
import { authorizeCall, type GrpcAuth, type RpcAccess } from './grpc-auth';
import { createLogger } from './logger';
import { ServicePeers, ServiceTokenSigner, SERVICE_TOKEN_HEADER, parseServicePeers } from './service-identity';

const ISSUER = 'https://accord.test/oauth/v0';
const ec = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const gatewayKey = ec();
const webhookKey = ec();
const tokenKey = ec();
const peers = new ServicePeers(
  parseServicePeers(
    JSON.stringify({
      gateway: gatewayKey.publicKey.export({ type: 'spki', format: 'pem' }),
      webhook: webhookKey.publicKey.export({ type: 'spki', format: 'pem' }),
    }),
  ),
);

let auth: GrpcAuth;
beforeAll(async () => {
  const pub = await exportJWK(tokenKey.publicKey);
  const keys = new KeyStore(
    async () => [{ ...pub, kid: 'k1', alg: 'ES256', use: 'sig', kty: 'EC', crv: 'P-256', x: pub.x!, y: pub.y!, n: '', e: '' }],
    60_000,
    createLogger('test', 'silent'),
  );
  auth = { peers, accessTokens: { keys, issuer: ISSUER }, adminToken: 'admin-token-0123456789' };
});

const accessToken = (claims: Record<string, unknown>, opts: { typ?: string; exp?: string | number } = {}) =>
  new SignJWT({ acc: 'acc-a', app: 'app-a', scope: 'consent', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: opts.typ ?? 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience('accord')
    .setSubject('client-a')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '5m')
    .sign(tokenKey.privateKey);

const md = (entries: Record<string, string>) => {
  const m = new Metadata();
  for (const [k, v] of Object.entries(entries)) m.set(k, v);
  return m;
};
const platform: RpcAccess = { scope: 'consent', services: ['gateway'] };

/** The gRPC code a call is refused with, or 'admitted'. */
async function outcome(access: RpcAccess, metadata: Metadata, request: Record<string, unknown> = { accountId: '' }): Promise<string> {
  try {
    await authorizeCall('accord.test.v1.T/M', access, metadata, request, auth);
    return 'admitted';
  } catch (err) {
    return status[(err as { code: number }).code]!;
  }
}

describe('service tokens', () => {
  it('prove the identity whose key signed them, once signed and then reused', async () => {
    const signer = new ServiceTokenSigner('gateway', gatewayKey.privateKey);
    const token = signer.token();
    expect(signer.token()).toBe(token);
    await expect(peers.verify(token)).resolves.toBe('gateway');
  });

  it('are refused when signed by another key, for another identity than the signer, expired, or not service tokens at all', async () => {
    await expect(peers.verify(new ServiceTokenSigner('gateway', ec().privateKey).token())).resolves.toBeUndefined();
    // the webhook service's key cannot speak as the gateway
    await expect(peers.verify(new ServiceTokenSigner('gateway', webhookKey.privateKey).token())).resolves.toBeUndefined();
    // an identity no peer key is configured for
    await expect(peers.verify(new ServiceTokenSigner('consent', ec().privateKey).token())).resolves.toBeUndefined();
    const old = new ServiceTokenSigner('gateway', gatewayKey.privateKey, 60).token(Date.now() - 3_600_000);
    await expect(peers.verify(old)).resolves.toBeUndefined();
    await expect(peers.verify(await accessToken({}))).resolves.toBeUndefined();
    await expect(peers.verify('not.a.token')).resolves.toBeUndefined();
  });

  it('peers are configured as JSON of PEM keys or certificates, and anything else is named', () => {
    expect(() => parseServicePeers('[]')).toThrow(/JSON object/);
    expect(() => parseServicePeers('{"mailer": "x"}')).toThrow(/unknown service identity "mailer"/);
    expect(() => parseServicePeers('{"gateway": "not a key"}')).toThrow(/gateway: not a readable public key or certificate/);
    expect(parseServicePeers('').size).toBe(0);
  });
});

describe('authorizeCall', () => {
  it('refuses a call with no credential, and a malformed or forged one, as UNAUTHENTICATED', async () => {
    expect(await outcome(platform, new Metadata())).toBe('UNAUTHENTICATED');
    expect(await outcome(platform, md({ authorization: 'Basic abc' }))).toBe('UNAUTHENTICATED');
    expect(await outcome(platform, md({ authorization: `Bearer ${await accessToken({}, { typ: 'JWT' })}` }))).toBe('UNAUTHENTICATED');
    expect(await outcome(platform, md({ [SERVICE_TOKEN_HEADER]: new ServiceTokenSigner('gateway', ec().privateKey).token() }))).toBe('UNAUTHENTICATED');
  });

  it('admits a public row without any credential', async () => {
    expect(await outcome({ services: [], public: true }, new Metadata())).toBe('admitted');
  });

  it('admits the services a row names and no other', async () => {
    const asWebhook = md({ [SERVICE_TOKEN_HEADER]: new ServiceTokenSigner('webhook', webhookKey.privateKey).token() });
    expect(await outcome(platform, md({ [SERVICE_TOKEN_HEADER]: new ServiceTokenSigner('gateway', gatewayKey.privateKey).token() }))).toBe('admitted');
    expect(await outcome(platform, asWebhook)).toBe('PERMISSION_DENIED');
  });

  it('holds a platform caller to its scope, and to its own account, application and client, filling in the empty ones', async () => {
    const token = md({ authorization: `Bearer ${await accessToken({})}` });
    expect(await outcome({ scope: 'webhooks', services: [] }, token)).toBe('PERMISSION_DENIED');
    expect(await outcome({ services: ['gateway'] }, token)).toBe('PERMISSION_DENIED');
    expect(await outcome(platform, token, { accountId: 'acc-b' })).toBe('PERMISSION_DENIED');
    expect(await outcome(platform, token, { accountId: 'acc-a', appId: 'app-b' })).toBe('PERMISSION_DENIED');
    expect(await outcome(platform, token, { accountId: 'acc-a', clientId: 'client-b' })).toBe('PERMISSION_DENIED');
    expect(await outcome({ ...platform, appFilter: true }, token, { accountId: 'acc-a', appId: 'app-b' })).toBe('admitted');
    const request = { accountId: '', appId: '', clientId: '' };
    const { caller } = await authorizeCall('accord.test.v1.T/M', platform, token, request, auth);
    expect(caller).toEqual({ kind: 'platform', accountId: 'acc-a', appId: 'app-a', clientId: 'client-a', scopes: ['consent'] });
    expect(request).toEqual({ accountId: 'acc-a', appId: 'app-a', clientId: 'client-a' });
  });

  it('refuses an expired access token as UNAUTHENTICATED', async () => {
    const expired = await accessToken({}, { exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await outcome(platform, md({ authorization: `Bearer ${expired}` }))).toBe('UNAUTHENTICATED');
  });

  it('admits the admin token on admin rows only, and says when admin RPCs are off', async () => {
    const admin = md({ authorization: 'Bearer admin-token-0123456789' });
    expect(await outcome({ services: [], admin: true }, admin)).toBe('admitted');
    expect(await outcome({ services: [], admin: true }, md({ authorization: 'Bearer admin-token-0123456789x' }))).toBe('UNAUTHENTICATED');
    expect(await outcome(platform, admin)).toBe('UNAUTHENTICATED');
    const off = { ...auth, adminToken: undefined };
    await expect(authorizeCall('accord.test.v1.T/M', { services: [], admin: true }, admin, {}, off)).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
  });

  it('runs the admit hook for platform callers only, and its refusal refuses the call', async () => {
    const seen: string[] = [];
    const hooked: GrpcAuth = {
      ...auth,
      admit: (caller) => {
        seen.push(caller.accountId);
        throw Object.assign(new Error('exhausted'), { code: status.RESOURCE_EXHAUSTED });
      },
    };
    const token = md({ authorization: `Bearer ${await accessToken({})}` });
    await expect(authorizeCall('accord.test.v1.T/M', platform, token, { accountId: '' }, hooked)).rejects.toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    const asGateway = md({ [SERVICE_TOKEN_HEADER]: new ServiceTokenSigner('gateway', gatewayKey.privateKey).token() });
    await expect(authorizeCall('accord.test.v1.T/M', platform, asGateway, { accountId: 'any' }, hooked)).resolves.toMatchObject({
      caller: { kind: 'service' },
    });
    expect(seen).toEqual(['acc-a']);
  });
});

describe('with mutual TLS (the identity of the verified client certificate, `peer`)', () => {
  const withTls = () => ({ ...auth, tls: {} as NonNullable<GrpcAuth['tls']> });
  const run = async (metadata: Metadata, peer: 'gateway' | 'webhook' | undefined) => {
    try {
      const { caller } = await authorizeCall('accord.test.v1.T/M', platform, metadata, { accountId: '' }, withTls(), peer);
      return caller.kind === 'service' ? `admitted as ${caller.service}` : `admitted as ${caller.kind}`;
    } catch (err) {
      return status[(err as { code: number }).code]!;
    }
  };
  const gatewayToken = () => new ServiceTokenSigner('gateway', gatewayKey.privateKey).token();

  test('a certificate alone proves its service; a token must come with the certificate of the same identity', async () => {
    expect(await run(md({}), 'gateway')).toBe('admitted as gateway');
    expect(await run(md({ [SERVICE_TOKEN_HEADER]: gatewayToken() }), 'gateway')).toBe('admitted as gateway');
    expect(await run(md({ [SERVICE_TOKEN_HEADER]: gatewayToken() }), undefined)).toBe('UNAUTHENTICATED');
    expect(await run(md({ [SERVICE_TOKEN_HEADER]: gatewayToken() }), 'webhook')).toBe('UNAUTHENTICATED');
    expect(await run(md({}), 'webhook')).toBe('PERMISSION_DENIED');
    expect(await run(md({}), undefined)).toBe('UNAUTHENTICATED');
  });

  test('a bearer token speaks for itself whatever the certificate (a platform caller, the admin token)', async () => {
    const token = await accessToken({});
    expect(await run(md({ authorization: `Bearer ${token}` }), undefined)).toBe('admitted as platform');
    expect(await run(md({ authorization: `Bearer ${token}` }), 'webhook')).toBe('admitted as platform');
  });

  test('without TLS a peer is never consulted: the token alone, as under npm start', async () => {
    expect(await outcome(platform, md({ [SERVICE_TOKEN_HEADER]: gatewayToken() }))).toBe('admitted');
    expect(await outcome(platform, md({}))).toBe('UNAUTHENTICATED');
  });
});
