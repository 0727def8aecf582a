import { defaultsOf, floorOf, parseMapping, updateOf } from './consent-mode';

const ads = {
  specId: 'a',
  purpose: 'advertising',
  consentMode: ['ad_storage', 'ad_user_data'],
  regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } },
};
const stats = {
  specId: 's',
  purpose: 'analytics',
  consentMode: ['analytics_storage'],
  regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, US: { model: 'opt-out', gpc: 'ignore' } },
};
const logs = { specId: 'l', purpose: 'security', consentMode: ['security_storage', 'analytics_storage'], regimes: { '*': { model: 'notice', gpc: 'ignore' } } };

describe('Consent Mode defaults from regimes', () => {
  it('gives `*` first, then each region in the state its regimes (most specific key first) give, grouped', () => {
    expect(defaultsOf([ads, stats], new Map(), false, 500)).toEqual([
      { ad_storage: 'denied', ad_user_data: 'denied', analytics_storage: 'denied', wait_for_update: 500 },
      { ad_storage: 'denied', ad_user_data: 'denied', analytics_storage: 'granted', region: ['US'], wait_for_update: 500 },
      { ad_storage: 'granted', ad_user_data: 'granted', analytics_storage: 'granted', region: ['US-CA'], wait_for_update: 500 },
    ]);
  });
  it('denies where a regime honours a GPC signal that is on, and grants a type only when every specification mapped to it does', () => {
    expect(defaultsOf([ads, stats, logs], new Map(), true, 0)).toEqual([
      { ad_storage: 'denied', ad_user_data: 'denied', analytics_storage: 'denied', security_storage: 'granted', wait_for_update: 0 },
      { ad_storage: 'denied', ad_user_data: 'denied', analytics_storage: 'granted', security_storage: 'granted', region: ['US', 'US-CA'], wait_for_update: 0 },
    ]);
  });
  it('lets the element map purposes or specification ids, overriding the specification', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const mapping = parseMapping(' analytics : personalization_storage ;  a: ad_personalization, bogus');
    expect(warn).toHaveBeenCalledWith('accord: unknown Consent Mode type(s) for a: bogus');
    warn.mockRestore();
    expect([...mapping]).toEqual([
      ['analytics', ['personalization_storage']],
      ['a', ['ad_personalization']],
    ]);
    expect(defaultsOf([ads, stats], mapping, false, 500)[0]).toEqual({ ad_personalization: 'denied', personalization_storage: 'denied', wait_for_update: 500 });
    expect(defaultsOf([{ ...ads, consentMode: [] }], new Map(), false, 500)).toEqual([]);
    expect(floorOf(['ad_storage'], 300)).toEqual({ ad_storage: 'denied', wait_for_update: 300 });
  });
});

describe('Consent Mode updates', () => {
  it('say only the types whose every specification is decided', () => {
    expect(
      updateOf([
        { types: ['ad_storage'], granted: true, decided: true },
        { types: ['analytics_storage'], granted: true, decided: true },
        { types: ['analytics_storage', 'security_storage'], granted: false, decided: false },
      ]),
    ).toEqual({ ad_storage: 'granted' });
  });
});
