import { decideAtp, parseAddtlConsent, type AcDecodeCache } from './addtl-consent';
import { SignalError } from './signals';

describe("Google's Additional Consent string", () => {
  it('parses version 2 (consented, then disclosed) and version 1 (consented only), empty lists too', () => {
    expect(parseAddtlConsent('2~1.35.41.101~dv.9.21.81')).toEqual({ version: 2, consented: new Set([1, 35, 41, 101]), disclosed: new Set([9, 21, 81]) });
    expect(parseAddtlConsent('2~~dv.')).toEqual({ version: 2, consented: new Set(), disclosed: new Set() });
    expect(parseAddtlConsent('2~7~dv.')).toEqual({ version: 2, consented: new Set([7]), disclosed: new Set() });
    expect(parseAddtlConsent('2~~dv.7')).toEqual({ version: 2, consented: new Set(), disclosed: new Set([7]) });
    expect(parseAddtlConsent('1~1.35.41.101')).toEqual({ version: 1, consented: new Set([1, 35, 41, 101]) });
    expect(parseAddtlConsent('1~')).toEqual({ version: 1, consented: new Set() });
  });

  it.each([
    ['', /not an Additional Consent string/],
    ['2', /not an Additional Consent string/],
    ['~1.2', /not an Additional Consent string/],
    ['v2~1~dv.2', /not an Additional Consent string/],
    ['3~1~dv.2', /version 3; versions 2 and 1/],
    ['0~1', /version 0/],
    ['2~1.2', /without its disclosed part/],
    ['2~1.2~3.4', /without its disclosed part/],
    ['2~1.2~dv.3~dv.4', /without its disclosed part/],
    ['2~1.2~DV.3', /without its disclosed part/],
    ['1~1~dv.2', /version 1 Additional Consent string with more than one/],
    ['2~0~dv.', /"0" among its consented/],
    ['2~01~dv.', /"01" among its consented/],
    ['2~-1~dv.', /"-1" among its consented/],
    ['2~1..2~dv.', /"" among its consented/],
    ['2~1.~dv.', /"" among its consented/],
    ['2~.1~dv.', /"" among its consented/],
    ['2~1~dv.2.', /"" among its disclosed/],
    ['2~1~dv.x', /"x" among its disclosed/],
    ['2~1.5e3~dv.', /"5e3" among its consented/],
    ['2~ 1~dv.', /" 1" among its consented/],
    ['2~1~dv.2 ', /"2 " among its disclosed/],
    ['2~2147483648~dv.', /"2147483648" among its consented/],
    ['1~1,2', /"1,2" among its consented/],
  ])('refuses %j', (s, message) => {
    expect(() => parseAddtlConsent(s)).toThrow(SignalError);
    expect(() => parseAddtlConsent(s)).toThrow(message);
  });

  it('accepts the largest id, and ids repeated or in both lists (as sent)', () => {
    expect(parseAddtlConsent('2~2147483647~dv.').consented).toEqual(new Set([2147483647]));
    expect(parseAddtlConsent('2~5.5~dv.5.6')).toEqual({ version: 2, consented: new Set([5]), disclosed: new Set([5, 6]) });
  });

  it('decides: consented, disclosed without consent, not disclosed, no string; version 1 does not say what was disclosed', () => {
    const ac = '2~1.35.41.101~dv.9.21.81';
    expect(decideAtp(ac, 35)).toEqual({ allowed: true, basis: 'ac-consent' });
    expect(decideAtp(ac, 21)).toEqual({ allowed: false, basis: 'ac-refused' });
    expect(decideAtp(ac, 2)).toEqual({ allowed: false, basis: 'ac-not-disclosed' });
    expect(decideAtp(undefined, 35)).toEqual({ allowed: false, basis: 'no-ac-string' });
    expect(decideAtp('', 35)).toEqual({ allowed: false, basis: 'no-ac-string' });
    expect(decideAtp('2~5~dv.5', 5)).toEqual({ allowed: true, basis: 'ac-consent' });
    expect(decideAtp('1~1.35', 35)).toEqual({ allowed: true, basis: 'ac-consent' });
    expect(decideAtp('1~1.35', 2)).toEqual({ allowed: false, basis: 'ac-refused' });
    expect(decideAtp('not an AC string', 2)).toEqual({ allowed: false, basis: 'ac-refused' });
  });

  it('parses each string once per call (the cache the call passes)', () => {
    const cache: AcDecodeCache = new Map();
    const ac = '2~1~dv.2';
    expect(decideAtp(ac, 1, cache).basis).toBe('ac-consent');
    const parsed = cache.get(ac);
    expect(parsed).toBeDefined();
    expect(decideAtp(ac, 2, cache).basis).toBe('ac-refused');
    expect(decideAtp(ac, 3, cache).basis).toBe('ac-not-disclosed');
    expect(cache.size).toBe(1);
    expect(cache.get(ac)).toBe(parsed);
  });
});
