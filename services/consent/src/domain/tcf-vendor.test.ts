import { decideVendor, parseGvl } from './tcf-vendor';

/** A TC string encoded with @iabtechlabtcf/core: purposes 1 and 3 consented, LI for 2 and 7, vendor 755 consented, with LI, disclosed. */
const BENCH_TC_STRING_FOR_TESTS = 'CQuV9AAQuV9AAAKABAENAqFgAKAAAEIAAAAAF5wAQF5gXnABAXmAAAAA.IF5wAQF5gAAA';
/** A GVL (vendor-list.json v3, trimmed): vendor 755 on consent for 1, 3, 4 and on legitimate interest for 2 and 7. */
const gvl = {
  vendorListVersion: 1,
  vendors: { 755: { id: 755, purposes: [1, 3, 4], legIntPurposes: [2, 7], flexiblePurposes: [2, 7] } },
};

describe('TCF vendor decisions', () => {
  it('answers from the purpose and vendor bits, the legitimate-interest bits where TCF allows them, and the GVL declarations', () => {
    const g = parseGvl(gvl);
    expect(g.version).toBe(1);
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 755, 1, g)).toEqual({ allowed: true, basis: 'tcf-consent' });
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 755, 2, g)).toEqual({ allowed: true, basis: 'tcf-legitimate-interest' });
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 755, 4, g)).toEqual({ allowed: false, basis: 'tcf-refused' }); // purpose 4 not consented
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 755, 11, g)).toEqual({ allowed: false, basis: 'tcf-refused' }); // not declared
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 8, 1, g)).toEqual({ allowed: false, basis: 'tcf-refused' }); // not in the GVL
    expect(decideVendor(undefined, 755, 1, g)).toEqual({ allowed: false, basis: 'no-tc-string' });
  });
  it('refuses a vendor deleted from the list, and a list without a version', () => {
    const deleted = parseGvl({ ...gvl, vendors: { 755: { ...gvl.vendors[755], deletedDate: '2026-01-01T00:00:00Z' } } });
    expect(decideVendor(BENCH_TC_STRING_FOR_TESTS, 755, 1, deleted).basis).toBe('tcf-refused');
    expect(() => parseGvl({ vendors: {} })).toThrow('vendorListVersion');
  });
});
