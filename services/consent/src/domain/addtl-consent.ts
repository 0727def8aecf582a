import { SignalError } from './signals';

/**
 * Google's Additional Consent string (`addtlConsent`, the IAB CMP API's name for it): the Google
 * Ad Tech Providers (ATPs) that are not on the IAB's Global Vendor List, beside a TC string
 * (docs/consent.md, Standards). Version 2 is `2~<consented ids>~dv.<disclosed ids>`, version 1
 * (still accepted by Google) `1~<consented ids>`; ids are dot-separated positive integers, either
 * list may be empty (`2~~dv.`). Parsed strictly: anything else is refused when the event is
 * stored, and the string is kept exactly as sent.
 */

/** What an AC string says. */
export interface AddtlConsent {
  version: 1 | 2;
  consented: ReadonlySet<number>;
  /** Version 2 only: the ATPs shown to the subject without consent (v1 strings do not say). */
  disclosed?: ReadonlySet<number>;
}

/** Largest ATP id accepted (the decision items' `atpVendor` is an int32). */
export const ATP_ID_MAX = 2 ** 31 - 1;

const ID = /^[1-9][0-9]*$/;

function idList(part: string, what: string): Set<number> {
  const out = new Set<number>();
  if (part === '') return out;
  for (const raw of part.split('.')) {
    const n = Number(raw);
    if (!ID.test(raw) || n > ATP_ID_MAX)
      throw new SignalError(`holds ${JSON.stringify(raw)} among its ${what} ATP ids; an id is a positive integer without leading zeros, at most ${ATP_ID_MAX}`);
    out.add(n);
  }
  return out;
}

/** Parses an AC string of version 1 or 2; throws a SignalError naming what is wrong. */
export function parseAddtlConsent(s: string): AddtlConsent {
  const parts = s.split('~');
  const version = parts[0];
  if (parts.length < 2 || !/^[0-9]+$/.test(version!))
    throw new SignalError('is not an Additional Consent string: it starts with its version and `~` (`2~<consented ids>~dv.<disclosed ids>`)');
  if (version === '1') {
    if (parts.length !== 2) throw new SignalError('is a version 1 Additional Consent string with more than one `~`; version 1 is `1~<consented ids>`');
    return { version: 1, consented: idList(parts[1]!, 'consented') };
  }
  if (version !== '2') throw new SignalError(`is an Additional Consent string of version ${version}; versions 2 and 1 are accepted`);
  if (parts.length !== 3 || !parts[2]!.startsWith('dv.'))
    throw new SignalError('is a version 2 Additional Consent string without its disclosed part: version 2 is `2~<consented ids>~dv.<disclosed ids>`');
  return { version: 2, consented: idList(parts[1]!, 'consented'), disclosed: idList(parts[2]!.slice(3), 'disclosed') };
}

export const AC_BASES = ['ac-consent', 'ac-refused', 'ac-not-disclosed', 'no-ac-string'] as const;
export type AcBasis = (typeof AC_BASES)[number];

/** The AC strings parsed within one call (null: does not parse). */
export type AcDecodeCache = Map<string, AddtlConsent | null>;

/**
 * "May Google ATP `atp` process for this subject?" from the subject's AC string: consented →
 * `ac-consent`; disclosed without consent → `ac-refused`; not disclosed at all → `ac-not-disclosed`
 * (a version 1 string does not say what was disclosed: an ATP it does not consent is `ac-refused`);
 * no string → `no-ac-string`. An id in both lists (the specification says it should not be) is
 * consented. `parsed` remembers the strings parsed within one call, as for TC strings.
 */
export function decideAtp(acString: string | undefined, atp: number, parsed: AcDecodeCache = new Map()): { allowed: boolean; basis: AcBasis } {
  if (!acString) return { allowed: false, basis: 'no-ac-string' };
  let ac = parsed.get(acString);
  if (ac === undefined) {
    try {
      ac = parseAddtlConsent(acString);
    } catch {
      ac = null; // stored strings are parsed when written: not reached
    }
    parsed.set(acString, ac);
  }
  if (!ac) return { allowed: false, basis: 'ac-refused' };
  if (ac.consented.has(atp)) return { allowed: true, basis: 'ac-consent' };
  if (!ac.disclosed || ac.disclosed.has(atp)) return { allowed: false, basis: 'ac-refused' };
  return { allowed: false, basis: 'ac-not-disclosed' };
}
