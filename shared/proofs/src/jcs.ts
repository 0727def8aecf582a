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
