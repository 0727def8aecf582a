import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LocalSecrets } from './stack-env';

export function generateSecrets(): LocalSecrets {
  const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    adminToken: `adm_${randomBytes(32).toString('base64url')}`,
    hashKey: randomBytes(32).toString('base64url'),
    tokenSigningKey: pem(),
    receiptSigningKey: pem(),
    erasureKey: randomBytes(32).toString('base64url'),
  };
}

/**
 * Secrets of a local stack, generated once and kept (mode 0600) next to its data, so that
 * credentials and receipts stay valid across restarts of `npm start`.
 */
export function loadOrCreateSecrets(file: string): LocalSecrets {
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
    if (kept.erasureKey) return kept;
    // made before subject erasure existed: add its key once, keep the rest
    kept.erasureKey = randomBytes(32).toString('base64url');
    writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
    return kept;
  }
  const secrets = generateSecrets();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
