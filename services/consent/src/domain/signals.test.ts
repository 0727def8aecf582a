import { GppModel } from '@iabgpp/cmpapi';
import { GVL, TCModel, TCString } from '@iabtechlabtcf/core';
import { InvalidArgumentError } from '@accord/common';
import { validateInputs } from './consent';
import { decodeGppString, decodeTcString, SignalError } from './signals';
import vendorList from '../../test/fixtures/tcf-vendor-list.json';

/** A TC string made with the IAB's own encoder (a minimal vendor list of policy version 5, TCF 2.3, without vendors). */
function tcString(opts: { purposes?: number[]; legitimateInterests?: number[]; specialFeatures?: number[] } = {}): string {
  const gvl = new GVL(vendorList as never);
  const m = new TCModel(gvl);
  m.cmpId = 10;
  m.cmpVersion = 2;
  m.consentLanguage = 'DE';
  m.publisherCountryCode = 'DE';
  m.purposeConsents.set(opts.purposes ?? [1, 3, 4]);
  m.purposeLegitimateInterests.set(opts.legitimateInterests ?? [2, 7]);
  m.specialFeatureOptins.set(opts.specialFeatures ?? [1]);
  return TCString.encode(m);
}

/** A GPP string made with the IAB's own encoder: fields by section. */
function gppString(sections: Record<string, Record<string, unknown>>): string {
  const m = new GppModel();
  for (const [section, fields] of Object.entries(sections)) for (const [f, v] of Object.entries(fields)) m.setFieldValue(section, f, v);
  return m.encode();
}

/** A TCF v1 consent string (the IAB's v1 example). */
const TCF_V1 = 'BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA';

describe('TC strings (IAB @iabtechlabtcf/core)', () => {
  test('a TCF v2 string is decoded to its version, policy version, CMP, purposes, legitimate interests and special features', () => {
    expect(decodeTcString(tcString())).toEqual({
      version: 2,
      policyVersion: 5,
      cmpId: 10,
      cmpVersion: 2,
      purposes: [1, 3, 4],
      legitimateInterests: [2, 7],
      specialFeatures: [1],
    });
  });

  test('a TCF v1 string, another version, garbage and a truncated string are refused with a reason', () => {
    const good = tcString();
    expect(() => decodeTcString(TCF_V1)).toThrow(/TCF v1/);
    expect(() => decodeTcString(`Z${good.slice(1)}`)).toThrow(/not a TCF v2/);
    expect(() => decodeTcString('garbage')).toThrow(SignalError);
    expect(() => decodeTcString('C')).toThrow(/does not decode/);
    expect(() => decodeTcString(good.slice(0, 12))).toThrow(/does not decode/);
    expect(() => decodeTcString('CPXx RfA')).toThrow(/not a TC string/);
  });

  test('random input never escapes as anything but a refusal', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const s = 'C' + Array.from({ length: 1 + Math.floor(rnd() * 80) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      try {
        decodeTcString(s);
      } catch (err) {
        expect(err).toBeInstanceOf(SignalError);
      }
    }
  });
});

describe('GPP strings (IAB @iabgpp/cmpapi)', () => {
  test('sections in the order of the string, and the US opt-outs across US sections', () => {
    const s = gppString({
      uspv1: { Notice: 'Y', OptOutSale: 'N', LspaCovered: 'N' },
      usnat: { SaleOptOut: 2, SharingOptOut: 1, TargetedAdvertisingOptOut: 1 },
      usca: { SaleOptOut: 1 },
    });
    expect(decodeGppString(s)).toEqual({
      sections: ['uspv1', 'usnat', 'usca'],
      // usca opts out of the sale although uspv1 and usnat do not
      saleOptOut: true,
      sharingOptOut: true,
      targetedAdvertisingOptOut: true,
    });
  });

  test('opt-outs that no section states are absent; "did not opt out" is false', () => {
    expect(decodeGppString(gppString({ usva: { SaleOptOut: 2 } }))).toEqual({ sections: ['usva'], saleOptOut: false });
    expect(decodeGppString(gppString({ uspv1: { Notice: 'Y', OptOutSale: '-', LspaCovered: 'N' } }))).toEqual({ sections: ['uspv1'] });
  });

  test('a GPP string with a TCF EU section lists it', () => {
    expect(decodeGppString(`DBABMA~${tcString()}`).sections).toEqual(['tcfeuv2']);
  });

  test('garbage, a bad section, a header without its sections and an empty string are refused', () => {
    expect(() => decodeGppString('garbage')).toThrow(SignalError);
    expect(() => decodeGppString('DBABMA~')).toThrow(/does not decode/);
    expect(() => decodeGppString('DBACNYA~xxxx')).toThrow(/does not decode/);
    expect(() => decodeGppString('DBABzw~1YN')).toThrow(/does not decode/);
    expect(() => decodeGppString('DBA')).toThrow(SignalError);
    expect(() => decodeGppString('a b')).toThrow(/not a GPP string/);
  });
});

describe('signals of event inputs', () => {
  const base = { subject: 's', issuer: 'i', target: 't', action: null };

  test('are normalised: jurisdiction upper case, strings decoded beside them, empty strings absent', () => {
    const tc = tcString();
    const [out] = validateInputs([{ ...base, gpc: true, tcString: tc, gppString: '', jurisdiction: 'us-ca' }]);
    expect(out).toMatchObject({ gpc: true, tcString: tc, tcf: { version: 2, purposes: [1, 3, 4] }, jurisdiction: 'US-CA' });
    expect(out).not.toHaveProperty('gppString');
    expect(out).not.toHaveProperty('gpp');
  });

  test('every bad signal of every event is reported with its path, nothing is kept', () => {
    const err = (() => {
      try {
        validateInputs([
          { ...base, tcString: TCF_V1 },
          { ...base, gppString: 'garbage', jurisdiction: 'ZZ' },
          { ...base, tcString: 'C'.repeat(10_001), gpc: 'yes' as never },
        ]);
      } catch (e) {
        return e as InvalidArgumentError;
      }
      throw new Error('accepted');
    })();
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err.fields.map((f) => f.field)).toEqual(['/0/tcString', '/1/gppString', '/1/jurisdiction', '/2/gpc', '/2/tcString']);
    expect(err.fields[4]!.message).toBe('must be at most 10000 characters');
  });

  test("Google's Additional Consent string: kept exactly as sent beside the TC string, refused by field when it is not one", () => {
    const tc = tcString();
    const [v2, v1, none] = validateInputs([
      { ...base, tcString: tc, addtlConsent: '2~1.35.41.101~dv.9.21.81' },
      { ...base, addtlConsent: '1~7.8' },
      { ...base, addtlConsent: '' },
    ]);
    expect(v2).toMatchObject({ tcString: tc, addtlConsent: '2~1.35.41.101~dv.9.21.81' });
    expect(v1!.addtlConsent).toBe('1~7.8');
    expect(none).not.toHaveProperty('addtlConsent');
    let err: InvalidArgumentError | undefined;
    try {
      validateInputs([
        { ...base, addtlConsent: '2~1.35' },
        { ...base, addtlConsent: '2~01~dv.' },
        { ...base, addtlConsent: 5 as never },
        { ...base, addtlConsent: `2~${'1.'.repeat(5_000)}1~dv.` },
      ]);
    } catch (e) {
      err = e as InvalidArgumentError;
    }
    expect(err!.fields.map((f) => f.field)).toEqual(['/0/addtlConsent', '/1/addtlConsent', '/2/addtlConsent', '/3/addtlConsent']);
    expect(err!.fields.map((f) => f.message)).toEqual([
      expect.stringMatching(/without its disclosed part/),
      expect.stringMatching(/"01" among its consented ATP ids/),
      'must be a string',
      'must be at most 10000 characters',
    ]);
  });
});
