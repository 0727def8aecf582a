import { GppModel, Sections } from '@iabgpp/cmpapi';
import { TCString } from '@iabtechlabtcf/core';
import { contracts } from '@accord/proto';

/**
 * The consent signals an event may carry besides its action (docs/consent.md, Signals and
 * regimes): a Global Privacy Control flag, an IAB TCF v2 TC string, an IAB GPP string and the
 * subject's jurisdiction. The strings are decoded with the IAB's own libraries when the event is
 * stored, and what is worth searching is kept beside them; what does not decode is refused.
 */

/** What a TC string says (vendor lists are left in the string). */
export interface TcfFacts {
  /** TC string format version: 2 (TCF 2.0 to 2.3). */
  version: number;
  /** TCF policy version (4: TCF 2.2, 5: TCF 2.3). */
  policyVersion: number;
  cmpId: number;
  cmpVersion: number;
  /** Purposes consented to, ascending. */
  purposes: number[];
  /** Purposes whose legitimate interest was not objected to, ascending. */
  legitimateInterests: number[];
  /** Special features opted in to, ascending. */
  specialFeatures: number[];
}

/** What a GPP string says: its sections, and the US opt-outs across its US sections. */
export interface GppFacts {
  /** Section API prefixes in the order of the string. */
  sections: string[];
  saleOptOut?: boolean;
  sharingOptOut?: boolean;
  targetedAdvertisingOptOut?: boolean;
}

export const SIGNAL_LIMITS = {
  tcString: contracts.consent.LIMITS.tcString,
  gppString: contracts.consent.LIMITS.gppString,
  addtlConsent: contracts.consent.LIMITS.addtlConsent,
} as const;

/** A string that is not a signal of the kind expected, and why (the field error's message). */
export class SignalError extends Error {}

/** The ids set in an IAB Vector (ascending). */
function idsOf(v: { forEach(fn: (value: boolean, id: number) => void): void }): number[] {
  const out: number[] = [];
  v.forEach((value, id) => {
    if (value) out.push(id);
  });
  return out;
}

/**
 * Decodes a TC string of TCF v2 (policy versions 2.0 to 2.3 share the format). The first
 * character of a TC string is its 6-bit version (`B`: TCF v1, `C`: v2); any other version is
 * refused before decoding, as is anything the library cannot decode (it throws its own
 * DecodingError, or a TypeError on some garbage: both are a refusal here).
 */
export function decodeTcString(s: string): TcfFacts {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(s)) throw new SignalError('is not a TC string (base64url segments separated by dots)');
  if (s[0] === 'B') throw new SignalError('is a TCF v1 TC string; only TCF v2 strings (TCF 2.0 to 2.3) are accepted');
  if (s[0] !== 'C') throw new SignalError('is not a TCF v2 TC string (its version is not 2)');
  let m: ReturnType<typeof TCString.decode>;
  try {
    m = TCString.decode(s);
  } catch (err) {
    throw new SignalError(`does not decode as a TC string: ${(err as Error).message}`);
  }
  if (m.version !== 2) throw new SignalError(`is a TC string of version ${String(m.version)}; only version 2 is accepted`);
  return {
    version: 2,
    policyVersion: Number(m.policyVersion),
    cmpId: Number(m.cmpId),
    cmpVersion: Number(m.cmpVersion),
    purposes: idsOf(m.purposeConsents),
    legitimateInterests: idsOf(m.purposeLegitimateInterests),
    specialFeatures: idsOf(m.specialFeatureOptins),
  };
}

/** The US opt-out fields of GPP sections: 1 opted out, 2 did not, 0 not applicable (uspv1: Y, N, -). */
const US_OPT_OUTS = [
  ['saleOptOut', 'SaleOptOut', 'OptOutSale'],
  ['sharingOptOut', 'SharingOptOut', undefined],
  ['targetedAdvertisingOptOut', 'TargetedAdvertisingOptOut', undefined],
] as const;

/**
 * Decodes a GPP string, every section of it (the library decodes sections lazily: all are read
 * here, so a bad section is refused now, not when someone reads the event).
 */
export function decodeGppString(s: string): GppFacts {
  if (!/^[A-Za-z0-9_.~-]+$/.test(s)) throw new SignalError('is not a GPP string (base64url sections separated by ~)');
  let sections: Record<string, Record<string, unknown>>;
  let ids: number[];
  try {
    const model = new GppModel(s);
    ids = model.getSectionIds() as number[];
    sections = model.toObject() as Record<string, Record<string, unknown>>;
  } catch (err) {
    throw new SignalError(`does not decode as a GPP string: ${(err as Error).message}`);
  }
  const names = ids.map((id) => Sections.SECTION_ID_NAME_MAP.get(id) ?? `section${id}`);
  if (!names.length) throw new SignalError('is a GPP string without any section');
  const facts: GppFacts = { sections: names };
  for (const [fact, field, uspField] of US_OPT_OUTS) {
    let out: boolean | undefined;
    for (const sec of Object.values(sections)) {
      const v = sec[field] ?? (uspField ? sec[uspField] : undefined);
      if (v === 1 || v === 'Y') out = true;
      else if ((v === 2 || v === 'N') && out === undefined) out = false;
    }
    if (out !== undefined) facts[fact] = out;
  }
  return facts;
}
