/** Hashes travel as standard, padded base64 (RFC 4648 §4); anything else is refused, not repaired. */
import { HASH_SIZE } from './merkle';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function toBase64(b: Uint8Array): string {
  return Buffer.from(b).toString('base64');
}

/** A 32-byte hash from standard padded base64, or undefined when the text is anything else. */
export function hashFromBase64(s: unknown): Buffer | undefined {
  if (typeof s !== 'string' || s.length !== 44 || !BASE64.test(s)) return undefined;
  const b = Buffer.from(s, 'base64');
  return b.length === HASH_SIZE ? b : undefined;
}
