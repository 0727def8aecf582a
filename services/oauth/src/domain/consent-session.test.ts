import { generateKeyPair, exportJWK, jwtVerify, decodeProtectedHeader } from 'jose';
import { canonicalOrigin, checkSessionInput, parseOrigins, SESSION_TOKEN_TYPE, signSessionToken, type ConsentSessionInput } from './consent-session';

const base: ConsentSessionInput = { accountId: 'acc', appId: 'app', subject: 'user-1', issuer: 'shop', groupId: 'g1', targets: [], ttlSeconds: 0 };

describe('consent session input', () => {
  it('accepts a group session with the default ttl', () => {
    expect(checkSessionInput(base)).toEqual([]);
  });
  it('needs a subject, an issuer and a group or targets, each error naming its field', () => {
    const fields = checkSessionInput({ ...base, subject: ' ', issuer: '', groupId: '' }).map((e) => e.field);
    expect(fields).toEqual(['/subject', '/issuer', '/groupId']);
  });
  it('refuses a subject, issuer or target holding U+FFFD, as the consent service refuses it on every event (a gRPC caller’s bytes that were not UTF-8 arrive so)', () => {
    const errors = checkSessionInput({ ...base, subject: 'u-\uFFFD', issuer: '\uFFFD', targets: ['https://t.example', 't-\uFFFD'] });
    expect(errors.map((e) => e.field)).toEqual(['/subject', '/issuer', '/targets/1']);
    expect(errors[0]!.message).toMatch(/^must not hold U\+FFFD/);
  });
  it("holds subject, issuer and targets to the consent events' limits, counted in characters as the document counts them", () => {
    const errors = checkSessionInput({ ...base, subject: 's'.repeat(1025), issuer: 'i'.repeat(1025), targets: ['t'.repeat(2049)] });
    expect(errors).toEqual([
      { field: '/subject', message: 'must be at most 1024 characters' },
      { field: '/issuer', message: 'must be at most 1024 characters' },
      { field: '/targets/0', message: 'must be 1 to 2048 characters' },
    ]);
    // 1024 characters outside the BMP are 2048 UTF-16 units: still 1024 characters
    expect(checkSessionInput({ ...base, subject: '😀'.repeat(1024), issuer: 'i'.repeat(1024), targets: ['t'.repeat(2048)] })).toEqual([]);
  });
  it('refuses a group id longer than the document allows', () => {
    expect(checkSessionInput({ ...base, groupId: 'g'.repeat(65) }).map((e) => e.field)).toEqual(['/groupId']);
  });
  it('refuses a ttl above one hour', () => {
    expect(checkSessionInput({ ...base, ttlSeconds: 3601 }).map((e) => e.field)).toEqual(['/ttlSeconds']);
  });
});

describe('consent session token', () => {
  it('is typed accord-session+jwt and binds account, application, subject, issuer and group', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const now = new Date('2026-01-01T00:00:00Z');
    const key = { kid: 'k1', alg: 'ES256', privateKey, publicJwk: await exportJWK(publicKey) } as never;
    const { token, expiresAt } = await signSessionToken(key, { issuer: 'http://a/oauth/v0', now }, base);
    expect(expiresAt.toISOString()).toBe('2026-01-01T00:15:00.000Z');
    expect(decodeProtectedHeader(token).typ).toBe(SESSION_TOKEN_TYPE);
    const { payload } = await jwtVerify(token, publicKey, { currentDate: now, typ: SESSION_TOKEN_TYPE });
    expect(payload).toMatchObject({ sub: 'user-1', acc: 'acc', app: 'app', cis: 'shop', grp: 'g1', aud: 'accord' });
  });
});

describe('allowed origins', () => {
  it('canonicalises origins (lower case host, default port dropped)', () => {
    expect(canonicalOrigin('https://Shop.Example:443')).toBe('https://shop.example');
    expect(canonicalOrigin('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
  });
  it('refuses paths, wildcards, other schemes and credentials with the index at fault', () => {
    const { errors } = parseOrigins(['https://ok.example', 'https://*.example', 'https://a.example/path', 'ftp://a.example', 'https://u:p@a.example', 'null']);
    expect(errors.map((e) => e.field)).toEqual(['/origins/1', '/origins/2', '/origins/3', '/origins/4', '/origins/5']);
  });
});
