import { RestrictionType, TCString } from '@iabtechlabtcf/core';

/**
 * "May vendor V process for purpose P?" from a subject's TC string (IAB TCF 2.3), decoded with
 * the IAB's own library and judged against the operator's Global Vendor List (docs/consent.md,
 * Standards): the vendor must be disclosed (`disclosedVendors`, mandatory since TCF 2.3), a
 * publisher restriction may forbid the purpose or require one legal basis (flexible purposes
 * switch), and then consent needs purpose and vendor consent, legitimate interest needs both
 * legitimate-interest bits (cleared when the subject objected) and a purpose that TCF allows on
 * legitimate interest.
 */

export const TCF_BASES = ['tcf-consent', 'tcf-legitimate-interest', 'tcf-refused', 'tcf-restricted', 'no-tc-string'] as const;
export type TcfBasis = (typeof TCF_BASES)[number];

/** Purposes TCF 2.2+ allows on legitimate interest (1 and 3–6 need consent). */
export const LI_PURPOSES: ReadonlySet<number> = new Set([2, 7, 8, 9, 10, 11]);

/** What a decision reads of a GVL vendor. */
export interface GvlVendor {
  purposes: readonly number[];
  legIntPurposes: readonly number[];
  flexiblePurposes: readonly number[];
}
/** The Global Vendor List as a decision reads it. */
export interface Gvl {
  version: number;
  vendors: ReadonlyMap<number, GvlVendor>;
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((n): n is number => Number.isInteger(n)) : []);

/** A GVL from the IAB's `vendor-list.json` format (v3); throws naming what is wrong. */
export function parseGvl(json: unknown): Gvl {
  const o = json as { vendorListVersion?: unknown; vendors?: unknown } | null;
  if (!o || typeof o !== 'object') throw new Error('is not a JSON object');
  if (!Number.isInteger(o.vendorListVersion) || (o.vendorListVersion as number) < 1) throw new Error('has no vendorListVersion');
  if (!o.vendors || typeof o.vendors !== 'object') throw new Error('has no vendors object');
  const vendors = new Map<number, GvlVendor>();
  for (const [key, raw] of Object.entries(o.vendors as Record<string, unknown>)) {
    const id = Number(key);
    if (!Number.isInteger(id) || id < 1 || !raw || typeof raw !== 'object') continue;
    const v = raw as Record<string, unknown>;
    if (v.deletedDate) continue; // a vendor deleted from the list has no legal basis any more
    vendors.set(id, { purposes: ids(v.purposes), legIntPurposes: ids(v.legIntPurposes), flexiblePurposes: ids(v.flexiblePurposes) });
  }
  return { version: o.vendorListVersion as number, vendors };
}

export interface VendorDecision {
  allowed: boolean;
  basis: TcfBasis;
}

/** The legal basis the vendor uses for the purpose, after any publisher restriction ('restricted': none may). */
function legalBasisOf(vendor: GvlVendor, purpose: number, restriction: RestrictionType | undefined): 'consent' | 'li' | 'restricted' | 'none' {
  const consent = vendor.purposes.includes(purpose);
  const li = vendor.legIntPurposes.includes(purpose);
  const flexible = vendor.flexiblePurposes.includes(purpose);
  if (restriction === RestrictionType.NOT_ALLOWED) return 'restricted';
  if (restriction === RestrictionType.REQUIRE_CONSENT) return consent || (li && flexible) ? 'consent' : 'restricted';
  if (restriction === RestrictionType.REQUIRE_LI) return (li || (consent && flexible)) && LI_PURPOSES.has(purpose) ? 'li' : 'restricted';
  return consent ? 'consent' : li ? 'li' : 'none';
}

type Decoded = ReturnType<typeof TCString.decode>;
/** The TC strings decoded within one call (null: does not decode). */
export type TcDecodeCache = Map<string, Decoded | null>;

/**
 * Decides one item; `decoded` remembers the strings decoded within one call (a batch of items
 * often shares a subject's string: each is decoded once).
 */
export function decideVendor(tcString: string | undefined, vendor: number, purpose: number, gvl: Gvl, decoded: TcDecodeCache = new Map()): VendorDecision {
  if (!tcString) return { allowed: false, basis: 'no-tc-string' };
  let tc = decoded.get(tcString);
  if (tc === undefined) {
    try {
      tc = TCString.decode(tcString);
    } catch {
      tc = null; // stored strings are decoded when written: not reached
    }
    decoded.set(tcString, tc);
  }
  if (!tc) return { allowed: false, basis: 'tcf-refused' };
  const listed = gvl.vendors.get(vendor);
  if (!listed || !tc.vendorsDisclosed.has(vendor)) return { allowed: false, basis: 'tcf-refused' };
  const basis = legalBasisOf(listed, purpose, tc.publisherRestrictions.getRestrictionType(vendor, purpose));
  if (basis === 'restricted') return { allowed: false, basis: 'tcf-restricted' };
  if (basis === 'consent' && tc.purposeConsents.has(purpose) && tc.vendorConsents.has(vendor)) return { allowed: true, basis: 'tcf-consent' };
  if (basis === 'li' && LI_PURPOSES.has(purpose) && tc.purposeLegitimateInterests.has(purpose) && tc.vendorLegitimateInterests.has(vendor))
    return { allowed: true, basis: 'tcf-legitimate-interest' };
  return { allowed: false, basis: 'tcf-refused' };
}
