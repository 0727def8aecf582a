/**
 * RFC 8785 (JSON Canonicalization Scheme) serialization, and the log leaf of a consent event.
 * The serializer is the `canonicalize` package (by one of the RFC's authors); this module pins
 * what the log needs from it: UTF-8 bytes, and a refusal of values JSON cannot carry.
 */
import canonicalize from 'canonicalize';

/** The RFC 8785 serialization of a JSON value (throws for undefined, functions, NaN, Infinity). */
export function canonicalJson(value: unknown): string {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw new TypeError('not a JSON value');
  const out = canonicalize(value);
  if (out === undefined) throw new TypeError('not a JSON value');
  return out;
}

/**
 * The leaf of a consent event in the log: the RFC 8785 serialization, as UTF-8, of the event
 * object exactly as `POST /consents` answered it (every field it returned, nothing else).
 */
export function eventLeaf(event: Record<string, unknown>): Buffer {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) throw new TypeError('a consent event is a JSON object');
  return Buffer.from(canonicalJson(event), 'utf8');
}

/** The `type` of a link event's leaf (linked identities), and of its line in the NDJSON export (`links=true`). */
export const LINK_TYPE = 'subject.linked';

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * The leaf of a link event (linked identities) in the log: the RFC 8785 serialization, as UTF-8,
 * of `{"type":"subject.linked","id","issuer","identity","subject","createdAt","appId"}`, plus
 * `importedAt` for an imported link, taken from the link as the API answers it (POST or GET
 * /consent/v0/subjects/links, a subject's JSON export) or as a line of the NDJSON export with
 * `links=true`; other fields (`type` of the line, `erasedAt`) are not part of it. An erased link
 * names keyed hashes now, while its leaf holds the names it was made with: it cannot be rebuilt.
 */
export function linkLeaf(link: Record<string, unknown>): Buffer {
  if (link === null || typeof link !== 'object' || Array.isArray(link)) throw new TypeError('a link event is a JSON object');
  if (link.erasedAt !== undefined) throw new TypeError('an erased link names keyed hashes; its leaf holds the names it was made with');
  const { id, issuer, identity, subject, createdAt, appId, importedAt } = link;
  if (
    ![id, issuer, identity, createdAt, appId].every(isString) ||
    !(subject === null || isString(subject)) ||
    !(importedAt === undefined || isString(importedAt))
  )
    throw new TypeError('a link event has string id, issuer, identity, createdAt and appId, a string or null subject, and an optional string importedAt');
  return Buffer.from(
    canonicalJson({ type: LINK_TYPE, id, issuer, identity, subject, createdAt, appId, ...(importedAt !== undefined ? { importedAt } : {}) }),
    'utf8',
  );
}

/** Fields the API adds to an event when reading it (its state at read time), which its leaf does not hold. */
const READ_TIME_FIELDS = ['expired', 'renewalRequired'];

/**
 * The leaf of one line of the NDJSON export (`GET /consent/v0/consents/export`): a link line
 * (`type: "subject.linked"`) gives its link leaf (`linkLeaf`), a consent event its event leaf
 * (`eventLeaf`) without what reads add (`expired`, `renewalRequired`). An erased line (`erasedAt`)
 * throws: its leaf was fixed before the subject became a keyed hash.
 */
export function exportLineLeaf(line: Record<string, unknown>): Buffer {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) throw new TypeError('an export line is a JSON object');
  if (line.type === LINK_TYPE) return linkLeaf(line);
  if (line.type !== undefined) throw new TypeError(`an export line's type is "${LINK_TYPE}" or absent`);
  if (line.erasedAt !== undefined) throw new TypeError('an erased event names keyed hashes; its leaf holds the values it was written with');
  return eventLeaf(Object.fromEntries(Object.entries(line).filter(([k]) => !READ_TIME_FIELDS.includes(k))));
}
