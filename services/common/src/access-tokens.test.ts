import { errors as joseErrors, exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { KeyStore, VerifiedTokens } from './access-tokens';
import { createLogger } from './logger';
import type { commonv1 } from '@accord/proto';

const ISSUER = 'https://accord.test/oauth/v0';

async function keyPair(kid: string): Promise<{ privateKey: KeyLike; jwk: commonv1.Jwk }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk: { kid, kty: 'EC', alg: 'ES256', use: 'sig', crv: 'P-256', x: jwk.x!, y: jwk.y! } as commonv1.Jwk };
}

const token = (key: KeyLike, kid: string, expSec: number) =>
  new SignJWT({ acc: 'acc-1', app: 'app-1', scope: 'consent' })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience('accord')
    .setSubject('client-1')
    .setIssuedAt()
    .setExpirationTime(expSec)
    .sign(key);

describe('verified access tokens (the cache of the gateway and every service)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('accepts a token again from the cache while its key is published, and stops when the key is withdrawn', async () => {
    const a = await keyPair('a');
    let published = [a.jwk];
    // ttl -1: the store refetches the JWKS on every lookup (with 0, two lookups in the same millisecond shared a fetch)
    const keys = new KeyStore(async () => published, -1, createLogger('test', 'silent'), 0);
    const verified = new VerifiedTokens();
    const t = await token(a.privateKey, 'a', Math.floor(Date.now() / 1000) + 300);
    expect((await verified.verify(t, keys, ISSUER)).acc).toBe('acc-1');
    expect((await verified.verify(t, keys, ISSUER)).acc).toBe('acc-1');
    published = [(await keyPair('b')).jwk]; // rotation withdrew key a (ttl 0: refreshed on every use)
    await expect(verified.verify(t, keys, ISSUER)).rejects.toBeInstanceOf(joseErrors.JWKSNoMatchingKey);
  });

  it('rejects a cached token once it has expired', async () => {
    const a = await keyPair('a');
    const keys = new KeyStore(async () => [a.jwk], 60_000, createLogger('test', 'silent'));
    const verified = new VerifiedTokens();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const t = await token(a.privateKey, 'a', exp);
    await verified.verify(t, keys, ISSUER);
    jest.spyOn(Date, 'now').mockReturnValue(exp * 1000 + 1);
    await expect(verified.verify(t, keys, ISSUER)).rejects.toBeInstanceOf(joseErrors.JWTExpired);
  });

  it('never accepts a token whose signature does not verify, even after the genuine one was cached', async () => {
    const a = await keyPair('a');
    const keys = new KeyStore(async () => [a.jwk], 60_000, createLogger('test', 'silent'));
    const verified = new VerifiedTokens();
    const t = await token(a.privateKey, 'a', Math.floor(Date.now() / 1000) + 300);
    await verified.verify(t, keys, ISSUER);
    const [h, p, s] = t.split('.');
    const forged = `${h}.${p}.${s!.slice(0, -4)}AAAA`;
    await expect(verified.verify(forged, keys, ISSUER)).rejects.toBeInstanceOf(joseErrors.JOSEError);
    await expect(verified.verify(t, keys, 'https://elsewhere.test')).rejects.toBeInstanceOf(joseErrors.JWTClaimValidationFailed);
  });
});
