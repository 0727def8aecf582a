/**
 * Subject erasure (GDPR art. 17; docs/consent.md, *Erasure*): the subject's personal data in an
 * event is replaced by keyed hashes, the event itself (id, action, time, issuer, target, scope,
 * token, application) stays as evidence. No I/O here: the rules only.
 */
import { createHmac } from 'node:crypto';
import { InvalidArgumentError } from '@accord/common';
import { holdsReplacement, IDENTIFIER_MESSAGE, LIMITS } from './consent';

/** Prefix of every value erasure wrote (a subject, source or delegate that was replaced). */
export const ERASED_PREFIX = 'erased:';

/** Used when ACCORD_ERASURE_KEY is unset outside production. Anyone can read it: never deploy it. */
export const INSECURE_DEVELOPMENT_ERASURE_KEY = 'accord-INSECURE-development-erasure-key-do-not-use-in-production';

/**
 * The account's erasure key: HMAC-SHA256 of the account id under the installation's secret
 * (ACCORD_ERASURE_KEY). One secret to keep, and still one key per account: a hash of one
 * account says nothing about the same subject in another.
 */
export function accountErasureKey(secret: string, accountId: string): Buffer {
  if (!accountId) throw new TypeError('an erasure key belongs to an account');
  return createHmac('sha256', secret).update(`accord-erasure\0${accountId}`).digest();
}

/**
 * What an erased value becomes: `erased:` + base64url(HMAC-SHA256(account key, value)), 51
 * characters. Deterministic, so one subject becomes one pseudonym across all its events and states
 * (the history stays coherent evidence, and counts stay right); without the key it reveals
 * nothing and cannot be confirmed by guessing.
 */
export function pseudonym(accountKey: Buffer, value: string): string {
  return ERASED_PREFIX + createHmac('sha256', accountKey).update(value, 'utf8').digest('base64url');
}

/**
 * What an imported event's key (domain/import.ts importKey: the account, then `x:` + the line's
 * externalId or `h:` + the SHA-256 of its content) becomes when its subject is erased: the
 * account, then `e:` + base64url(HMAC-SHA256(account key, the rest)). The externalId may be
 * personal data (an order number, an e-mail), and a hash of content that holds the subject
 * confirms a guessed subject; the keyed hash does neither. Deterministic, so an import can tell
 * that a line is an erased event already stored (the same function of its key).
 */
export function erasedImportKey(accountKey: Buffer, accountId: string, importKey: string): string {
  const prefix = `${accountId}/`;
  const rest = importKey.startsWith(prefix) ? importKey.slice(prefix.length) : importKey;
  if (rest.startsWith('e:')) return importKey;
  return `${prefix}e:${createHmac('sha256', accountKey).update(rest, 'utf8').digest('base64url')}`;
}

export interface EraseInput {
  subject: string;
  issuer?: string;
}

/** The subject to erase (and the optional issuer), validated like the fields of an event. */
export function validateErase(input: { subject?: string; issuer?: string }): EraseInput {
  const errors: Array<{ field: string; message: string }> = [];
  const subject = input.subject ?? '';
  if (!subject.trim()) errors.push({ field: '/subject', message: 'is required' });
  else if (subject.length > LIMITS.subject) errors.push({ field: '/subject', message: `must be at most ${LIMITS.subject} characters` });
  else if (subject.startsWith(ERASED_PREFIX)) errors.push({ field: '/subject', message: 'is already an erased subject' });
  else if (holdsReplacement(subject)) errors.push({ field: '/subject', message: IDENTIFIER_MESSAGE });
  if (input.issuer !== undefined && input.issuer !== '') {
    if (!input.issuer.trim()) errors.push({ field: '/issuer', message: 'must not be blank' });
    else if (input.issuer.length > LIMITS.issuer) errors.push({ field: '/issuer', message: `must be at most ${LIMITS.issuer} characters` });
    else if (holdsReplacement(input.issuer)) errors.push({ field: '/issuer', message: IDENTIFIER_MESSAGE });
  }
  if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  return input.issuer ? { subject, issuer: input.issuer } : { subject };
}

/** The fields of a stored event that erasure replaces (with their keyed hashes), and how. */
export function redaction(
  accountKey: Buffer,
  ev: { subject: string; source?: string | null; delegate?: string | null },
): {
  subject: string;
  source?: string;
  delegate?: string;
} {
  const out: { subject: string; source?: string; delegate?: string } = { subject: pseudonym(accountKey, ev.subject) };
  // free text that may name the subject (a URL with its id, the person acting for it): hashed too,
  // so that "there was a source / a delegate" and equality between events stay visible
  if (ev.source != null && !ev.source.startsWith(ERASED_PREFIX)) out.source = pseudonym(accountKey, ev.source);
  if (ev.delegate != null && !ev.delegate.startsWith(ERASED_PREFIX)) out.delegate = pseudonym(accountKey, ev.delegate);
  return out;
}
