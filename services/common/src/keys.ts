import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { exportJWK } from 'jose';
import type { commonv1 } from '@accord/proto';

/** An asymmetric signing key with its public JWK (kid = RFC 7638 thumbprint-like hash). */
export interface SigningKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: KeyObject;
  publicJwk: commonv1.Jwk;
}

/**
 * Loads one or more PEM private keys (PKCS8 or SEC1/PKCS1, concatenated). The first key signs;
 * every key is published so that tokens signed before a rotation still verify.
 * With no PEM, generates an ephemeral P-256 key (fine for one process; say so in the logs).
 */
export async function loadSigningKeys(pem: string | undefined): Promise<{ keys: SigningKey[]; generated: boolean }> {
  const blocks = pem ? (pem.replace(/\\n/g, '\n').match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g) ?? []) : [];
  if (pem && !blocks.length) throw new Error('no PEM private key found in the configured signing keys');
  const privateKeys = blocks.length ? blocks.map((b) => createPrivateKey(b)) : [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey];
  const keys = await Promise.all(privateKeys.map(toSigningKey));
  return { keys, generated: blocks.length === 0 };
}

async function toSigningKey(privateKey: KeyObject): Promise<SigningKey> {
  const type = privateKey.asymmetricKeyType;
  let alg: SigningKey['alg'];
  if (type === 'ec' && privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1') alg = 'ES256';
  else if (type === 'rsa') alg = 'RS256';
  else throw new Error(`unsupported signing key type ${type}; use EC P-256 or RSA`);
  const jwk = await exportJWK(createPublicKey(privateKey));
  const kid = createHash('sha256')
    .update(JSON.stringify(alg === 'ES256' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url')
    .slice(0, 16);
  return {
    kid,
    alg,
    privateKey,
    publicJwk: { kid, kty: jwk.kty ?? '', alg, use: 'sig', crv: jwk.crv ?? '', x: jwk.x ?? '', y: jwk.y ?? '', n: jwk.n ?? '', e: jwk.e ?? '' },
  };
}

/** A proto Jwk as a plain RFC 7517 JSON object (empty members left out). */
export function jwkToJson(jwk: commonv1.Jwk): Record<string, string> {
  return Object.fromEntries(Object.entries(jwk).filter(([, v]) => typeof v === 'string' && v !== ''));
}
