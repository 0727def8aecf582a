import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
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

/** A `\uD800`–`\uDFFF` escape: the only way a JSON text in UTF-8 can hold a UTF-16 surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Marks a request whose JSON text escapes a surrogate (wellFormedBody then looks at its strings). */
const ESCAPES_SURROGATES = Symbol('escapesSurrogates');

/** body-parser `verify` for JSON: valid UTF-8 and no duplicate keys, else a 400 problem. */
export function verifyJsonBody(req: unknown, _res: unknown, buf: Buffer): void {
  verifyUtf8(req, _res, buf);
  const text = buf.toString('utf8');
  const dup = duplicateKey(text);
  if (dup !== null) throw HttpProblem.field('/', `the key "${dup.slice(0, 100)}" appears twice in one object`);
  if (req && SURROGATE_ESCAPE.test(text)) (req as { [ESCAPES_SURROGATES]?: boolean })[ESCAPES_SURROGATES] = true;
}

/** Most lone surrogates one answer names. */
const MAX_NAMED = 100;

/**
 * Where a parsed JSON value holds strings (object keys or values) that are not well-formed
 * Unicode, because of a lone UTF-16 surrogate: their JSON pointers, in document order, each with
 * its first lone surrogate (at most 100); empty when every string is well-formed. Iterative: a
 * deeply nested body cannot exhaust the stack.
 */
export function loneSurrogates(value: unknown): Array<{ field: string; unit: number }> {
  const out: Array<{ field: string; unit: number }> = [];
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  // [value, its pointer, the key that names it (checked too)]
  const stack: Array<[unknown, string, string?]> = [[value, '']];
  while (stack.length && out.length < MAX_NAMED) {
    const [v, at, key] = stack.pop()!;
    const lone = LONE_SURROGATE.exec(key ?? '') ?? (typeof v === 'string' ? LONE_SURROGATE.exec(v) : null);
    if (lone) out.push({ field: at || '/', unit: lone[0].charCodeAt(0) });
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}/${i}`]);
    else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], `${at}/${escape(entries[i]![0])}`, entries[i]![0]]);
    }
  }
  return out;
}

/**
 * Refuses a JSON body holding a lone UTF-16 surrogate (`"u-\ud800"`), naming where: JSON may
 * escape one, but no UTF-8 text can carry it, so the gRPC request to a service would carry U+FFFD
 * in its place (every encoder writes it so) and different values would be stored as one
 * (`u-\ud800` and `u-\udbff` both as `u-\uFFFD`). Nothing sent is stored other than as sent.
 * Only bodies whose text escapes a surrogate are looked at (verifyJsonBody marks them).
 */
export const wellFormedBody: RequestHandler = (req, _res, next) => {
  if (!(req as { [ESCAPES_SURROGATES]?: boolean })[ESCAPES_SURROGATES]) return next();
  const lone = loneSurrogates(req.body);
  if (lone.length)
    throw HttpProblem.validation(
      lone.map(({ field, unit }) => ({
        field,
        message: `holds a lone UTF-16 surrogate (\\u${unit.toString(16).toUpperCase()}), which is not Unicode text and cannot be stored as sent`,
      })),
    );
  next();
};

/** body-parser `verify`: valid UTF-8 (a replacement character would be stored silently otherwise). */
export function verifyUtf8(_req: unknown, _res: unknown, buf: Buffer): void {
  if (!isUtf8(buf)) throw HttpProblem.field('/', 'the body is not valid UTF-8');
}

/** A form's name or value decoded (`+` is a space), or undefined when its percent-escapes are not UTF-8. */
function formComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * body-parser `verify` for forms: valid UTF-8, and each field as sent or refused, naming it. The
 * form parser (qs) keeps a value whose percent-escapes are not UTF-8 as the escapes themselves
 * (`u-%ED%A0%80` would be stored as those nine characters, as if a client had meant them), and
 * drops a field named `__proto__` without a word: both are 400s here.
 */
export function verifyForm(req: unknown, res: unknown, buf: Buffer): void {
  verifyUtf8(req, res, buf);
  // ISO-8859-1 escapes (which the parser also reads) decode to a character each: nothing is lost
  const type = (req as { headers?: Record<string, string | string[] | undefined> } | undefined)?.headers?.['content-type'];
  const charset = typeof type === 'string' ? /;\s*charset="?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase() : undefined;
  const utf8 = charset === undefined || charset === 'utf-8';
  const errors: Array<{ field: string; message: string }> = [];
  for (const pair of buf.toString('utf8').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const name = formComponent(rawName);
    const field = `/${(name ?? rawName).replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (utf8 && (name === undefined || formComponent(eq < 0 ? '' : pair.slice(eq + 1)) === undefined))
      errors.push({ field, message: 'is not valid percent-encoded UTF-8' });
    else if (name === '__proto__') errors.push({ field, message: 'is not a known field' });
  }
  if (errors.length) throw HttpProblem.validation(errors);
}
