import { ConflictError, InvalidArgumentError, type FieldError } from '@accord/common';
import { contracts } from '@accord/proto';
import { eventLeaf, leafHash } from '@accord/proofs';
import { nextEventId } from './event-id';

/**
 * Linked identities (docs/consent.md, Linked identities). A link says, for one issuer, that
 * `identity` (a device or cookie id) belongs to `subject` (a known id). Links are immutable events
 * like consents: unlinking is a link with `subject: null`, moving a device to another person is a
 * new link; the newest link of an identity (largest id) is its current one, nothing is rewritten.
 *
 * **No chains, so no cycles.** Links make stars of depth one: a subject and the identities linked
 * to it. An identity that is itself the subject of current links cannot be linked to another
 * subject (field `identity`), and a subject that is currently linked as an identity elsewhere
 * cannot receive links (field `subject`); an identity is never its own subject. Resolution
 * therefore follows one link at most, whatever happens (two racing links that would build a
 * chain only lengthen no path: readers never follow a second link).
 */
export interface LinkInput {
  issuer: string;
  identity: string;
  /** null: unlinks the identity. */
  subject: string | null;
}

/** A stored, immutable link event. */
export interface LinkEvent {
  id: string;
  accountId: string;
  appId: string;
  issuer: string;
  identity: string;
  /** null: the identity was unlinked by this event. */
  subject: string | null;
  createdAt: Date;
  /** Imported links only (docs/consent.md, Import): when the link came into this registry (`createdAt` is its original time). */
  importedAt?: Date;
  /** When an erasure rewrote identity and subject as keyed hashes. */
  erasedAt?: Date;
}

/** An imported link as stored: the link, and the key that makes it unique in its account (domain/import.ts `importKey`). */
export interface ImportedLink extends LinkEvent {
  importedAt: Date;
  importKey: string;
}

/** A link refused by the no-chain rule (409, naming the field). */
export class LinkConflictError extends ConflictError {
  override readonly fields: FieldError[];
  constructor(field: 'identity' | 'subject', message: string) {
    super(`${field}: ${message}`);
    this.fields = [{ field, message }];
  }
}

const { LIMITS, holdsReplacement, IDENTIFIER_MESSAGE, longerThan } = { ...contracts.consent, longerThan: contracts.longerThan };

/** Most identities linked to one subject that reads resolve across (a link beyond it is refused). */
export const MAX_LINKED_IDENTITIES = 100;

/** The identifier rules of a consent event's subject, for each name of a link (stored exactly as sent, or refused). */
function nameErrors(field: string, v: unknown, max: number, errors: FieldError[]): void {
  if (typeof v !== 'string' || v.trim() === '') errors.push({ field, message: 'is required' });
  else if (longerThan(v, max)) errors.push({ field, message: `must be at most ${max} characters` });
  else if (holdsReplacement(v)) errors.push({ field, message: IDENTIFIER_MESSAGE });
  else if (v.startsWith('erased:')) errors.push({ field, message: 'must not be an erased value (erased:…)' });
}

/** Checks a link input: every problem at once, each naming its field. */
export function validateLink(input: { issuer?: unknown; identity?: unknown; subject?: unknown }): LinkInput {
  const errors: FieldError[] = [];
  nameErrors('issuer', input.issuer, LIMITS.issuer, errors);
  nameErrors('identity', input.identity, LIMITS.subject, errors);
  if (input.subject !== null && input.subject !== undefined) {
    nameErrors('subject', input.subject, LIMITS.subject, errors);
    if (!errors.length && input.subject === input.identity) errors.push({ field: 'subject', message: 'must differ from identity' });
  } else if (input.subject === undefined) errors.push({ field: 'subject', message: 'is required (null unlinks the identity)' });
  if (errors.length) throw new InvalidArgumentError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  return { issuer: input.issuer as string, identity: input.identity as string, subject: (input.subject as string | null) ?? null };
}

/** The stored event of a validated link. */
export function buildLink(accountId: string, appId: string, input: LinkInput, now: number = Date.now()): LinkEvent {
  const { id, createdAt } = nextEventId(now);
  return { id, accountId, appId, issuer: input.issuer, identity: input.identity, subject: input.subject, createdAt };
}

/** The newest link of each identity among these (newest wins), by identity. */
export function currentLinks(links: Iterable<LinkEvent>): Map<string, LinkEvent> {
  const out = new Map<string, LinkEvent>();
  for (const l of links) {
    const held = out.get(l.identity);
    if (!held || held.id < l.id) out.set(l.identity, l);
  }
  return out;
}

/**
 * The subject `name` resolves to and the identities linked to it, from the links that name it
 * (as identity or subject): when `name` is currently linked to a subject, that subject (the
 * caller then reads its identities: `identitiesOf`), else `name` itself.
 */
export function rootOf(name: string, links: Iterable<LinkEvent>): string {
  const own = currentLinks([...links].filter((l) => l.identity === name)).get(name);
  return own?.subject ?? name;
}

/** The identities currently linked to `subject` (newest link of each names it), given every link of the candidates. */
export function identitiesOf(subject: string, links: Iterable<LinkEvent>): string[] {
  const out: string[] = [];
  for (const [identity, l] of currentLinks(links)) if (l.subject === subject) out.push(identity);
  return out.sort();
}

/**
 * The no-chain rule for a new link, given the current links that name its identity and its
 * subject: `identity` must not be the subject of current links (it would become a chain's middle),
 * `subject` must not be currently linked as an identity elsewhere; at most MAX_LINKED_IDENTITIES
 * identities per subject. Unlinking (subject null) is always allowed.
 */
export function checkNoChain(input: LinkInput, identityIsSubjectOf: string[], subjectLinkedTo: string | null, subjectIdentities: string[]): void {
  if (input.subject === null) return;
  const others = identityIsSubjectOf.filter((i) => i !== input.subject);
  if (others.length || identityIsSubjectOf.includes(input.subject))
    throw new LinkConflictError(
      'identity',
      `is a subject with ${identityIsSubjectOf.length} linked identities: a link cannot chain (unlink them first, or link them to the new subject one by one)`,
    );
  if (subjectLinkedTo !== null)
    throw new LinkConflictError('subject', 'is linked as an identity of another subject: a link cannot chain (link to that subject instead)');
  if (!subjectIdentities.includes(input.identity) && subjectIdentities.length >= MAX_LINKED_IDENTITIES)
    throw new LinkConflictError('subject', `has ${MAX_LINKED_IDENTITIES} linked identities already, the most one subject may have`);
}

/** The REST JSON of a link event (the answer of POST /consent/v0/subjects/links, and the `data` of `subject.linked` webhooks). */
export function linkJson(l: LinkEvent): Record<string, unknown> {
  return {
    id: l.id,
    appId: l.appId,
    issuer: l.issuer,
    identity: l.identity,
    subject: l.subject,
    createdAt: l.createdAt.toISOString(),
    ...(l.importedAt ? { importedAt: l.importedAt.toISOString() } : {}),
    ...(l.erasedAt ? { erasedAt: l.erasedAt.toISOString() } : {}),
  };
}

/**
 * The object a link event's log leaf is the RFC 8785 JSON of (docs/consent.md, Linked identities):
 * `type: "subject.linked"` tells it from a consent event's leaf. Fixed at insert, before any
 * erasure, so the leaf is always the link as answered. An imported link's leaf also holds
 * `importedAt` (links made here have none, so their leaves are unchanged), as an imported event's
 * does. Never change it: leaves in logs would stop verifying. The offline verifier rebuilds it
 * from a link as answered or exported (@accord/proofs `linkLeaf`); a test keeps the two equal.
 */
export function linkLeafJson(l: LinkEvent): Record<string, unknown> {
  return {
    type: 'subject.linked',
    id: l.id,
    issuer: l.issuer,
    identity: l.identity,
    subject: l.subject,
    createdAt: l.createdAt.toISOString(),
    appId: l.appId,
    ...(l.importedAt ? { importedAt: l.importedAt.toISOString() } : {}),
  };
}

/** The leaf hash of a link event: SHA-256(0x00 ‖ JCS(linkLeafJson(link))). */
export function linkLeafHash(l: LinkEvent): Buffer {
  return leafHash(eventLeaf(linkLeafJson(l)));
}
