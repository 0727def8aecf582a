import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** Prefixes make leaked credentials recognisable (secret scanners, logs, support). */
export const PREFIX = { apiKey: 'ak_', clientId: 'cl_', clientSecret: 'cs_', refreshToken: 'rt_' } as const;

/** 32 random bytes from the CSPRNG, base64url, behind a recognisable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

export const newApiKey = () => newSecret(PREFIX.apiKey);
export const newClientSecret = () => newSecret(PREFIX.clientSecret);
export const newRefreshToken = () => newSecret(PREFIX.refreshToken);
/** Client ids are identifiers, not secrets: 16 random bytes are plenty to be unguessable and unique. */
export const newClientId = () => newSecret(PREFIX.clientId, 16);
export const newId = () => randomUUID();

/**
 * Keyed hashing and at-rest encryption of credentials, both derived (HKDF-SHA256, distinct info
 * labels) from one master secret, ACCORD_HASH_KEY. Secrets are stored only as HMAC-SHA256 so a
 * leaked database cannot be used to authenticate, and cannot be brute-forced without the key.
 */
export class CredentialCrypto {
  private readonly hmacKey: Buffer;
  private readonly encKey: Buffer;

  constructor(masterKey: string) {
    if (!masterKey) throw new Error('the hash key must not be empty');
    const ikm = Buffer.from(masterKey, 'utf8');
    this.hmacKey = Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), 'accord/oauth/credential-hmac/v1', 32));
    this.encKey = Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), 'accord/oauth/api-key-encryption/v1', 32));
  }

  /** HMAC-SHA256 of a secret, base64url: what the store indexes and compares. */
  hash(secret: string): string {
    return createHmac('sha256', this.hmacKey).update(secret, 'utf8').digest('base64url');
  }

  /** Constant-time check of a presented secret against a stored hash. */
  verify(secret: string, storedHash: string): boolean {
    const a = Buffer.from(this.hash(secret), 'base64url');
    const b = Buffer.from(storedHash, 'base64url');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * AES-256-GCM encryption bound to a context (e.g. the account id, as additional data) so a
   * ciphertext copied onto another record does not decrypt. Format: v1.<iv>.<ciphertext>.<tag>.
   */
  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  decrypt(sealed: string, context: string): string {
    const [version, iv, ct, tag] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || ct === undefined || tag === undefined) throw new Error('unknown ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** Constant-time equality of two strings of any length (compares SHA-256 digests). */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}
