import {
  choiceShown,
  DEFAULT_REGIMES,
  eventKind,
  normalizeJurisdiction,
  normalizeRegimes,
  regimeFor,
  sameRegimes,
  stateUnderRegime,
  type Regime,
  type Regimes,
} from './regimes';

const optIn: Regime = { model: 'opt-in', gpc: 'ignore' };
const optInGpc: Regime = { model: 'opt-in', gpc: 'opt-out' };
const optOut: Regime = { model: 'opt-out', gpc: 'ignore' };
const optOutGpc: Regime = { model: 'opt-out', gpc: 'opt-out' };
const notice: Regime = { model: 'notice', gpc: 'ignore' };

describe('jurisdiction codes', () => {
  test('ISO 3166-1 alpha-2 and ISO 3166-2 codes from the ISO list are known, in either case, answered upper case', () => {
    expect(normalizeJurisdiction('DE')).toBe('DE');
    expect(normalizeJurisdiction('us-ca')).toBe('US-CA');
    expect(normalizeJurisdiction('GB-BFS')).toBe('GB-BFS');
  });

  test('codes outside the lists are unknown: made-up ones, reserved ones (EU, UK), alpha-3, the CDN placeholders XX and T1', () => {
    for (const code of ['ZZ', 'US-ZZ', 'EU', 'UK', 'DEU', 'XX', 'T1', '', 'US-', '*', 'de ', 'x'.repeat(100)])
      expect(normalizeJurisdiction(code)).toBeUndefined();
  });
});

describe('regimeFor: the most specific code wins', () => {
  const regimes: Regimes = { '*': optIn, US: optOut, 'US-CA': optOutGpc };

  test('US-CA over US over *', () => {
    expect(regimeFor(regimes, 'US-CA')).toEqual({ key: 'US-CA', ...optOutGpc });
    expect(regimeFor(regimes, 'US-TX')).toEqual({ key: 'US', ...optOut });
    expect(regimeFor(regimes, 'US')).toEqual({ key: 'US', ...optOut });
    expect(regimeFor(regimes, 'DE')).toEqual({ key: '*', ...optIn });
  });

  test('without a jurisdiction, `*`; without regimes (or without `*`), opt-in with GPC ignored', () => {
    expect(regimeFor(regimes, undefined)).toEqual({ key: '*', ...optIn });
    expect(regimeFor(undefined, 'US-CA')).toEqual({ key: '*', ...optIn });
    expect(regimeFor({}, 'FR')).toEqual({ key: '*', ...optIn });
    expect(regimeFor({ FR: optOut }, 'DE')).toEqual({ key: '*', ...optIn });
  });

  test('a subdivision inside a larger subdivision falls back through its parent to the country', () => {
    // FR-01 (Ain) lies in FR-ARA (Auvergne-Rhône-Alpes), which lies in FR
    expect(regimeFor({ '*': optIn, 'FR-ARA': optOut }, 'FR-01')).toEqual({ key: 'FR-ARA', ...optOut });
    expect(regimeFor({ '*': optIn, FR: notice }, 'FR-01')).toEqual({ key: 'FR', ...notice });
  });
});

describe('normalizeRegimes', () => {
  test('keys in ISO form, gpc explicit, `*` added as opt-in, sorted', () => {
    const { regimes, errors } = normalizeRegimes({ 'us-ca': { model: 'opt-out', gpc: 'opt-out' }, DE: { model: 'opt-in' } });
    expect(errors).toEqual([]);
    expect(regimes).toEqual({ '*': optIn, DE: optIn, 'US-CA': optOutGpc });
    expect(Object.keys(regimes)).toEqual(['*', 'DE', 'US-CA']);
  });

  test('absent means the default', () => {
    expect(normalizeRegimes(undefined)).toEqual({ regimes: DEFAULT_REGIMES, errors: [] });
  });

  test('every bad key and value is reported with its path', () => {
    const { errors } = normalizeRegimes({
      ZZ: { model: 'opt-in' },
      FR: { model: 'maybe' },
      IT: { model: 'opt-in', gpc: 'sometimes' },
      ES: { model: 'notice', gpc: 'opt-out' },
      PT: { model: 'opt-in', extra: 1 },
      NL: 'opt-in',
      de: { model: 'opt-in' },
      DE: { model: 'opt-out' },
    });
    expect(errors.map((e) => e.field).sort()).toEqual(['/DE', '/ES/gpc', '/FR/model', '/IT/gpc', '/NL', '/PT/extra', '/ZZ'].sort());
  });

  test('too many jurisdictions', () => {
    const many = Object.fromEntries([...Array(301)].map((_, i) => [`X${i}`, { model: 'opt-in' }]));
    expect(normalizeRegimes(many).errors[0]).toEqual({ field: '', message: 'must name at most 300 jurisdictions' });
  });

  test('sameRegimes compares what the maps say, in any order, absent as the default', () => {
    expect(sameRegimes(undefined, { '*': optIn })).toBe(true);
    expect(sameRegimes({ US: optOut, '*': optIn }, { '*': optIn, US: optOut })).toBe(true);
    expect(sameRegimes({ '*': optIn, US: optOut }, { '*': optIn, US: optOutGpc })).toBe(false);
  });
});

describe('what a regime makes of a state (the newest event decides)', () => {
  const accept = { action: true };
  const decline = { action: false };
  const signal = { action: null, gpc: true };
  const nothing = { action: null };

  test('the kinds of events: a choice whatever its gpc, a GPC signal, nothing', () => {
    expect(eventKind({ action: true, gpc: true })).toBe('choice');
    expect(eventKind({ action: false })).toBe('choice');
    expect(eventKind(signal)).toBe('gpc-signal');
    expect(eventKind({ action: null, gpc: false })).toBe('no-action');
  });

  test.each([
    [optIn, undefined, false, 'no-consent'],
    [optIn, nothing, false, 'no-consent'],
    [optIn, accept, true, 'consent'],
    [optIn, decline, false, 'declined'],
    [optIn, signal, false, 'no-consent'],
    [optInGpc, signal, false, 'gpc'],
    [optOut, undefined, true, 'opt-out'],
    [optOut, signal, true, 'opt-out'],
    [optOutGpc, signal, false, 'gpc'],
    [optOutGpc, { action: true, gpc: true }, true, 'consent'],
    [optOutGpc, decline, false, 'declined'],
    [notice, decline, true, 'not-required'],
    [notice, undefined, true, 'not-required'],
  ] as const)('%j with %j: allowed %s (%s)', (regime, current, allowed, basis) => {
    expect(stateUnderRegime(regime, current)).toEqual({ allowed, basis });
  });
});

describe('what a consent UI pre-selects (a live GPC signal from the browser)', () => {
  test('opt-in pre-selects nothing, opt-out pre-selects, notice offers no choice', () => {
    expect(choiceShown(optIn, false)).toEqual({ preselected: false, gpcApplied: false });
    expect(choiceShown(optOut, false)).toEqual({ preselected: true, gpcApplied: false });
    expect(choiceShown(notice, true)).toEqual({ preselected: null, gpcApplied: false });
  });

  test('GPC consent is not invented where the regime ignores the signal', () => {
    expect(choiceShown(optOut, true)).toEqual({ preselected: true, gpcApplied: false });
    expect(choiceShown(optIn, true)).toEqual({ preselected: false, gpcApplied: false });
  });

  test('where the regime honours GPC, the signal declines unless a choice was made with it on', () => {
    expect(choiceShown(optOutGpc, true)).toEqual({ preselected: false, gpcApplied: true });
    // an accept made before the signal (without it): the signal is newer and counts as a decline
    expect(choiceShown(optOutGpc, true, { action: true })).toEqual({ preselected: false, gpcApplied: true });
    // an explicit accept made with the signal on overrides it
    expect(choiceShown(optOutGpc, true, { action: true, gpc: true })).toEqual({ preselected: true, gpcApplied: false });
    // a recorded signal keeps deciding after the browser stops sending it, until a choice is made
    expect(choiceShown(optOutGpc, false, { action: null, gpc: true })).toEqual({ preselected: false, gpcApplied: true });
    expect(choiceShown(optOutGpc, false, { action: true })).toEqual({ preselected: true, gpcApplied: false });
  });
});
