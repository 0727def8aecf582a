import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { SERVICE_IDENTITIES, type ServiceIdentity } from '@accord/common';

const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A private key per service identity (each process gets its own; all get every public key). */
const serviceKeys = () => Object.fromEntries(SERVICE_IDENTITIES.map((id) => [id, pem()])) as Record<ServiceIdentity, string>;

/** The secrets of a local stack (kept in a file between runs: `loadOrCreateSecrets`). */
export interface LocalSecrets {
  adminToken: string;
  hashKey: string;
  tokenSigningKey: string;
  receiptSigningKey: string;
  /** ACCORD_ERASURE_KEY of the consent service: the per-account keys of erased subjects derive from it. */
  erasureKey?: string;
  /** A private key (PEM) per service identity: ACCORD_SERVICE_KEY of each process, and `admin` for the operator's commands. */
  serviceKeys: Record<ServiceIdentity, string>;
}

export function generateSecrets(): LocalSecrets {
  return {
    adminToken: `adm_${randomBytes(32).toString('base64url')}`,
    hashKey: randomBytes(32).toString('base64url'),
    tokenSigningKey: pem(),
    receiptSigningKey: pem(),
    erasureKey: randomBytes(32).toString('base64url'),
    serviceKeys: serviceKeys(),
  };
}

/** ACCORD_SERVICE_PEERS of a stack: the public key of every service identity, as JSON. */
export function servicePeers(secrets: Pick<LocalSecrets, 'serviceKeys'>): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(secrets.serviceKeys).map(([id, key]) => [id, createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString()])),
  );
}

/**
 * Secrets of a local stack, generated once and kept (mode 0600) next to its data, so that
 * credentials and receipts stay valid across restarts of `npm start`.
 */
export function loadOrCreateSecrets(file: string): LocalSecrets {
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets> & Omit<LocalSecrets, 'serviceKeys'>;
    if (kept.erasureKey && kept.serviceKeys) return kept as LocalSecrets;
    // made before subject erasure or service identities existed: add what is missing once, keep the rest
    kept.erasureKey ??= randomBytes(32).toString('base64url');
    kept.serviceKeys ??= serviceKeys();
    writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
    return kept as LocalSecrets;
  }
  const secrets = generateSecrets();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
