import { isUtf8 } from 'node:buffer';
import { HttpProblem } from '../problem';

/**
 * The first key that appears twice in one object of a JSON text, or null. JSON.parse keeps the
 * last of duplicate keys silently, so `{"action":true,"action":false}` would mean whatever the
 * last parser in a chain decides; refusing it keeps one meaning. Linear, no recursion (deeply
 * nested bodies cannot exhaust the stack).
 */
export function duplicateKey(text: string): string | null {
  const objects: Array<Set<string> | null> = []; // null: an array
  let keyPosition = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
      const keys = objects[objects.length - 1];
      if (keyPosition && keys) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1)) as string;
        } catch {
          return null; // not JSON: the parser reports it
        }
        if (keys.has(key)) return key;
        keys.add(key);
      }
      keyPosition = false;
    } else if (c === 0x7b /* { */) {
      objects.push(new Set());
      keyPosition = true;
    } else if (c === 0x5b /* [ */) {
      objects.push(null);
      keyPosition = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      objects.pop();
      keyPosition = false;
    } else if (c === 0x2c /* , */) {
      keyPosition = objects[objects.length - 1] != null;
    }
  }
  return null;
}

/** body-parser `verify` for JSON: valid UTF-8 and no duplicate keys, else a 400 problem. */
export function verifyJsonBody(_req: unknown, _res: unknown, buf: Buffer): void {
  verifyUtf8(_req, _res, buf);
  const dup = duplicateKey(buf.toString('utf8'));
  if (dup !== null) throw HttpProblem.field('/', `the key "${dup.slice(0, 100)}" appears twice in one object`);
}

/** body-parser `verify` for forms: valid UTF-8 (a replacement character would be stored silently otherwise). */
export function verifyUtf8(_req: unknown, _res: unknown, buf: Buffer): void {
  if (!isUtf8(buf)) throw HttpProblem.field('/', 'the body is not valid UTF-8');
}
