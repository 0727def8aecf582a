import { invalidFieldsOf } from '@accord/testkit';
import { languageParam, updateGroup, updateSpec, validateGroup, validateSpec, validateText } from './validate';

const defaults = { location: 'EU' };

describe('specification fields', () => {
  it('applies the documented defaults: not sensitive, a consent target, the configured location', () => {
    const s = validateSpec({ data: 'e-mail', purpose: 'newsletter', action: 'collect' }, defaults);
    expect(s).toEqual({
      data: 'e-mail',
      purpose: 'newsletter',
      action: 'collect',
      sensitive: false,
      consentTarget: true,
      location: 'EU',
      duration: null,
      legalBasis: null,
      externalHref: null,
      // opt-in everywhere, GPC ignored: Accord's behaviour before regimes
      regimes: { '*': { model: 'opt-in', gpc: 'ignore' } },
    });
  });

  it('normalises regimes (keys upper case, gpc explicit, `*` added) and names every bad one under /regimes', () => {
    const s = validateSpec(
      { data: 'd', purpose: 'p', action: 'collect', regimes: { byJurisdiction: { 'us-ca': { model: 'opt-out', gpc: 'opt-out' } } } },
      defaults,
    );
    expect(s.regimes).toEqual({ '*': { model: 'opt-in', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } });
    expect(() =>
      validateSpec(
        {
          data: 'd',
          purpose: 'p',
          action: 'collect',
          regimes: { byJurisdiction: { ZZ: { model: 'opt-in' }, US: { model: 'sometimes', gpc: '' }, DE: { model: 'notice', gpc: 'opt-out' } } },
        },
        defaults,
      ),
    ).toThrow(
      expect.objectContaining({
        fields: [
          { field: '/regimes/ZZ', message: expect.stringContaining('ISO 3166') },
          { field: '/regimes/US/model', message: 'must be one of: opt-in, opt-out, notice' },
          { field: '/regimes/DE/gpc', message: expect.stringContaining('notice') },
        ],
      }),
    );
  });

  it('keeps Google Consent Mode types in their documented order without duplicates, and names an unknown one under /consentMode', () => {
    const s = validateSpec({ data: 'd', purpose: 'p', action: 'use', consentMode: ['analytics_storage', 'ad_storage', 'ad_storage'] }, defaults);
    expect(s.consentMode).toEqual(['ad_storage', 'analytics_storage']);
    expect(validateSpec({ data: 'd', purpose: 'p', action: 'use', consentMode: [] }, defaults)).not.toHaveProperty('consentMode');
    expect(() => validateSpec({ data: 'd', purpose: 'p', action: 'use', consentMode: ['ad_storage', 'cookie_storage'] }, defaults)).toThrow(
      expect.objectContaining({ fields: [{ field: '/consentMode/1', message: expect.stringContaining('must be one of ad_storage, ad_user_data') }] }),
    );
    // an update that does not name it keeps it; one that names it empty clears it
    const updated = updateSpec(s, { purpose: 'q' }, ['purpose'], defaults);
    expect(updated.consentMode).toEqual(['ad_storage', 'analytics_storage']);
    expect(updateSpec(s, {}, ['consentMode'], defaults)).not.toHaveProperty('consentMode');
  });

  it('names every missing required field at once', () => {
    expect(invalidFieldsOf(() => validateSpec({}, defaults))).toEqual(['/data', '/purpose', '/action']);
  });

  it('rejects an action outside the documented list', () => {
    expect(invalidFieldsOf(() => validateSpec({ data: 'd', purpose: 'p', action: 'sell' }, defaults))).toEqual(['/action']);
    for (const action of ['collect', 'store', 'use', 'share', 'transfer', 'delete'])
      expect(validateSpec({ data: 'd', purpose: 'p', action }, defaults).action).toBe(action);
  });

  it('accepts durations of whole positive days only', () => {
    const base = { data: 'd', purpose: 'p', action: 'store' };
    expect(validateSpec({ ...base, duration: 30 }, defaults).duration).toBe(30);
    for (const duration of [0, -1, 1.5, 36_501]) expect(invalidFieldsOf(() => validateSpec({ ...base, duration }, defaults))).toEqual(['/duration']);
  });

  it('accepts a consent validity of whole positive days only, and leaves it out when not set', () => {
    const base = { data: 'd', purpose: 'p', action: 'store' };
    expect(validateSpec({ ...base, consentValidityDays: 365 }, defaults).consentValidityDays).toBe(365);
    expect(validateSpec(base, defaults)).not.toHaveProperty('consentValidityDays');
    for (const consentValidityDays of [0, -1, 1.5, 36_501])
      expect(invalidFieldsOf(() => validateSpec({ ...base, consentValidityDays }, defaults))).toEqual(['/consentValidityDays']);
    const withValidity = validateSpec({ ...base, consentValidityDays: 30 }, defaults);
    expect(updateSpec(withValidity, { consentValidityDays: 60 }, ['consentValidityDays'], defaults).consentValidityDays).toBe(60);
    expect(updateSpec(withValidity, {}, ['consentValidityDays'], defaults)).not.toHaveProperty('consentValidityDays');
    expect(updateSpec(withValidity, { purpose: 'q' }, ['purpose'], defaults).consentValidityDays).toBe(30);
  });

  it('accepts only the listed legal bases', () => {
    const base = { data: 'd', purpose: 'p', action: 'use' };
    expect(validateSpec({ ...base, legalBasis: 'LEGITIMATE_INTEREST_3RDPARTY' }, defaults).legalBasis).toBe('LEGITIMATE_INTEREST_3RDPARTY');
    expect(invalidFieldsOf(() => validateSpec({ ...base, legalBasis: 'consent' }, defaults))).toEqual(['/legalBasis']);
  });

  it('requires externalHref to be an absolute http(s) URL', () => {
    const base = { data: 'd', purpose: 'p', action: 'use' };
    expect(validateSpec({ ...base, externalHref: 'https://example.com/privacy' }, defaults).externalHref).toBe('https://example.com/privacy');
    for (const externalHref of ['/privacy', 'javascript:alert(1)', 'example.com', ''])
      expect(invalidFieldsOf(() => validateSpec({ ...base, externalHref }, defaults))).toEqual(['/externalHref']);
  });

  it('rejects an empty location', () => {
    expect(invalidFieldsOf(() => validateSpec({ data: 'd', purpose: 'p', action: 'use', location: '  ' }, defaults))).toEqual(['/location']);
  });

  it('updates only masked fields, and a masked absent field returns to its default', () => {
    const current = validateSpec({ data: 'd', purpose: 'p', action: 'store', duration: 10, sensitive: true, consentTarget: false, location: 'DE' }, defaults);
    const patched = updateSpec(current, { purpose: 'q', duration: undefined, consentTarget: undefined }, ['purpose', 'duration', 'consentTarget'], defaults);
    expect(patched).toMatchObject({ data: 'd', purpose: 'q', duration: null, sensitive: true, consentTarget: true, location: 'DE' });
    expect(invalidFieldsOf(() => updateSpec(current, {}, ['colour'], defaults))).toEqual(['/updateMask']);
    expect(invalidFieldsOf(() => updateSpec(current, {}, ['data'], defaults))).toEqual(['/data']);
  });
});

describe('group fields', () => {
  it('are optional and trimmed, with length limits', () => {
    expect(validateGroup({ description: ' Marketing ' })).toEqual({ name: '', description: 'Marketing', purpose: '' });
    expect(invalidFieldsOf(() => validateGroup({ name: 'x'.repeat(201) }))).toEqual(['/name']);
  });
  it('update keeps unmasked fields', () => {
    expect(updateGroup({ name: 'a', description: 'b', purpose: 'c' }, { name: 'z' }, ['name', 'purpose'])).toEqual({
      name: 'z',
      description: 'b',
      purpose: '',
    });
  });
});

describe('text fields', () => {
  it('validates the language against the ISO 639-1 list, case-insensitively', () => {
    expect(validateText({ value: 'Hallo', language: 'DE' })).toEqual({ value: 'Hallo', language: 'de', type: 'default' });
    expect(invalidFieldsOf(() => validateText({ value: 'x', language: 'xx' }))).toEqual(['/language']);
    expect(invalidFieldsOf(() => validateText({ value: 'x', language: 'eng' }))).toEqual(['/language']);
  });
  it('requires a value and a known type', () => {
    expect(invalidFieldsOf(() => validateText({ language: 'en', type: 'poem' }))).toEqual(['/value', '/type']);
    expect(validateText({ value: 'x', language: 'en', type: 'children' }).type).toBe('children');
  });
  it('prefixes field paths of embedded texts', () => {
    expect(invalidFieldsOf(() => validateText({ value: 'x', language: 'zz' }, '/texts/2'))).toEqual(['/texts/2/language']);
  });
  it('lang query parameter is validated by name', () => {
    expect(languageParam('')).toBe('');
    expect(languageParam('FR')).toBe('fr');
    expect(invalidFieldsOf(() => languageParam('french'))).toEqual(['lang']);
  });
});
