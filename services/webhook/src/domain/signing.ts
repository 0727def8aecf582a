import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks / Svix form). */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SecretEntry {
  secret: string;
  /** When a rotated-out secret stops signing; absent for the current secret. */
  expiresAt?: Date | null;
}

/** Secrets that sign at `now`: the current one and rotated-out ones still within their grace. */
export function activeSecrets(secrets: readonly SecretEntry[], now: Date): string[] {
  return secrets.filter((s) => !s.expiresAt || s.expiresAt.getTime() > now.getTime()).map((s) => s.secret);
}

/**
 * The secrets after a rotation: a new current secret first; the current one keeps signing until
 * `now + graceMs`, older ones keep their own end, and those already ended are dropped.
 */
export function rotateSecrets(
  secrets: ReadonlyArray<SecretEntry & { createdAt: Date }>,
  newSecret: string,
  now: Date,
  graceMs: number,
): Array<{ secret: string; createdAt: Date; expiresAt: Date | null }> {
  const graceEnd = new Date(now.getTime() + graceMs);
  const previous = secrets
    .map((s, i) => ({ secret: s.secret, createdAt: s.createdAt, expiresAt: i === 0 ? graceEnd : (s.expiresAt ?? null) }))
    .filter((s) => s.expiresAt && s.expiresAt > now);
  return [{ secret: newSecret, createdAt: now, expiresAt: null }, ...previous];
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (stable across retries),
 * `webhook-timestamp` (this attempt, unix seconds) and `webhook-signature` with one
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per active secret, space-separated.
 */
export function signatureHeaders(msgId: string, body: string, secrets: readonly string[], at: Date): Record<string, string> {
  if (!secrets.length) throw new Error('no active signing secret');
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(' '),
  };
}

/** The delivered body: `{"type","text"?,"data"}`. */
export function deliveryBody(type: string, data: unknown, text?: string): string {
  return JSON.stringify(text === undefined ? { type, data } : { type, text, data });
}
