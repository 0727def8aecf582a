import { createPrivateKey, createPublicKey, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

/**
 * The identities of Accord's own callers. Each service signs what it sends to another with a key
 * of its own, and every service knows the public keys of all: no application can obtain one (they
 * are not issued by the token endpoint), and a service can only speak as itself (it holds no other
 * private key). `admin` is the operator's command line (`npm run admin -- export`).
 */
export const SERVICE_IDENTITIES = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook', 'admin'] as const;
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

/** gRPC metadata carrying a service token (platform callers use `authorization` instead). */
export const SERVICE_TOKEN_HEADER = 'x-accord-service';
const TYP = 'accord-service+jwt';
const AUDIENCE = 'accord-services';

const isIdentity = (s: unknown): s is ServiceIdentity => typeof s === 'string' && (SERVICE_IDENTITIES as readonly string[]).includes(s);
const b64url = (v: object | Buffer) => (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');

/**
 * Signs this service's tokens: a compact ES256 JWT `{iss: <identity>, aud: accord-services}` for
 * `ttlSeconds`, made once and sent with every call until a minute before it expires (a call costs
 * one metadata entry, not a signature). Synchronous, so a client never awaits it.
 */
export class ServiceTokenSigner {
  private cached?: { token: string; renewAtMs: number };

  constructor(
    readonly identity: ServiceIdentity,
    private readonly key: KeyObject,
    private readonly ttlSeconds = 300,
  ) {
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error(`the service key of ${identity} must be an EC P-256 private key`);
    }
  }

  token(now = Date.now()): string {
    if (this.cached && now < this.cached.renewAtMs) return this.cached.token;
    const iat = Math.floor(now / 1000);
    const input = `${b64url({ alg: 'ES256', typ: TYP })}.${b64url({ iss: this.identity, aud: AUDIENCE, iat, exp: iat + this.ttlSeconds, jti: randomUUID() })}`;
    const signature = sign('sha256', Buffer.from(input), { key: this.key, dsaEncoding: 'ieee-p1363' });
    const token = `${input}.${b64url(signature)}`;
    this.cached = { token, renewAtMs: now + Math.max(1, this.ttlSeconds - 60) * 1000 };
    return token;
  }
}

/** A signer from a PEM private key (env ACCORD_SERVICE_KEY); undefined without one. */
export function serviceSigner(identity: ServiceIdentity, pem: string | undefined): ServiceTokenSigner | undefined {
  return pem ? new ServiceTokenSigner(identity, createPrivateKey(pem.replace(/\\n/g, '\n'))) : undefined;
}

/** A public key from PEM: SPKI `PUBLIC KEY`, an X.509 `CERTIFICATE` (its key), or a private key (its public half). */
function publicKeyOf(pem: string): KeyObject {
  const text = pem.replace(/\\n/g, '\n');
  if (text.includes('BEGIN CERTIFICATE')) return new X509Certificate(text).publicKey;
  return createPublicKey(text);
}

/**
 * The public keys of Accord's service identities, from JSON `{"gateway": "<PEM>", …}` (env
 * ACCORD_SERVICE_PEERS): each PEM a public key or a certificate. Unknown identities and unreadable
 * keys are configuration errors, named.
 */
export function parseServicePeers(json: string): Map<ServiceIdentity, KeyObject> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json || '{}');
  } catch {
    throw new Error('expected a JSON object {"<service>": "<PEM public key or certificate>", …}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object {"<service>": "<PEM>", …}');
  const out = new Map<ServiceIdentity, KeyObject>();
  for (const [name, pem] of Object.entries(parsed)) {
    if (!isIdentity(name)) throw new Error(`unknown service identity "${name}" (known: ${SERVICE_IDENTITIES.join(', ')})`);
    if (typeof pem !== 'string') throw new Error(`${name}: expected a PEM string`);
    try {
      out.set(name, publicKeyOf(pem));
    } catch (err) {
      throw new Error(`${name}: not a readable public key or certificate (${(err as Error).message})`);
    }
  }
  return out;
}

/**
 * Verifies service tokens against the configured public keys. A verified token is remembered until
 * it expires (a service sends the same one for minutes), so a call costs one map look-up; failures
 * are never remembered.
 */
export class ServicePeers {
  private readonly verified = new LRUCache<string, { identity: ServiceIdentity; expMs: number }>({ max: 1_000 });

  constructor(private readonly keys: Map<ServiceIdentity, KeyObject>) {}

  get size(): number {
    return this.keys.size;
  }

  /** The identity a valid token proves, or undefined (unknown identity, bad signature, expired, malformed). */
  async verify(token: string): Promise<ServiceIdentity | undefined> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expMs > Date.now()) return hit.identity;
      this.verified.delete(token);
      return undefined;
    }
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return undefined;
    }
    const key = isIdentity(iss) ? this.keys.get(iss) : undefined;
    if (!key || !isIdentity(iss)) return undefined;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['ES256'],
        typ: TYP,
        audience: AUDIENCE,
        issuer: iss,
        requiredClaims: ['exp', 'iat'],
        maxTokenAge: 600,
      });
      this.verified.set(token, { identity: iss, expMs: payload.exp! * 1000 });
      return iss;
    } catch {
      return undefined;
    }
  }
}
