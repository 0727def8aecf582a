import type { ConsentEvent } from './consent';
import { BASES, decide, lifecycle, type Basis, type DecisionSpec } from './decision';

const T0 = Date.UTC(2026, 2, 3, 12);
const HOUR = 3_600_000;

function ev(over: Partial<ConsentEvent>): ConsentEvent {
  return {
    id: '0'.repeat(32),
    accountId: 'acc',
    appId: 'app',
    subject: 's',
    issuer: 'i',
    target: 't',
    scope: 'default',
    action: true,
    token: 'ABCDEF',
    createdAt: new Date(T0 - HOUR),
    ...over,
  };
}

const accept = ev({ action: true });
const decline = ev({ action: false });
const noAction = ev({ action: null });
const signal = ev({ action: null, gpc: true });
const acceptWithSignal = ev({ action: true, gpc: true });
const acceptExpired = ev({ action: true, expiresAt: new Date(T0) });
const acceptLive = ev({ action: true, expiresAt: new Date(T0 + 1) });
const acceptV1 = ev({ action: true, targetVersion: 1 });
const declineV1 = ev({ action: false, targetVersion: 1 });
const acceptV2 = ev({ action: true, targetVersion: 2 });

const optIn: DecisionSpec = { legalBasis: 'CONSENT' };
const material: DecisionSpec = { legalBasis: 'CONSENT', reconsentSince: 2 };
const optOut: DecisionSpec = { legalBasis: 'CONSENT', regimes: { '*': { model: 'opt-out', gpc: 'ignore' } } };
const gpcOptOut: DecisionSpec = {
  legalBasis: 'CONSENT',
  regimes: { '*': { model: 'opt-in', gpc: 'ignore' }, US: { model: 'opt-out', gpc: 'ignore' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } },
};
const notice: DecisionSpec = { legalBasis: 'CONSENT', regimes: { '*': { model: 'notice', gpc: 'ignore' } } };
const contract: DecisionSpec = { legalBasis: 'CONTRACT', regimes: { '*': { model: 'opt-in', gpc: 'ignore' } } };

type Row = [
  name: string,
  current: ConsentEvent | undefined,
  spec: DecisionSpec | undefined,
  extra: { jurisdiction?: string; gpc?: boolean },
  allowed: boolean,
  basis: Basis,
];

// every basis, and each rule of docs/consent.md's table, in its order
const rows: Row[] = [
  ['legal basis other than CONSENT, no event', undefined, contract, {}, true, 'not-required'],
  ['legal basis other than CONSENT, a decline', decline, contract, {}, true, 'not-required'],
  ['notice, no event', undefined, notice, {}, true, 'not-required'],
  ['notice, a decline (evidence, does not gate)', decline, notice, {}, true, 'not-required'],
  ['plain target, an accept', accept, undefined, {}, true, 'consent'],
  ['plain target, a decline', decline, undefined, {}, false, 'declined'],
  ['plain target, no event', undefined, undefined, {}, false, 'no-consent'],
  ['plain target, only action null', noAction, undefined, {}, false, 'no-consent'],
  ['plain target, a GPC signal (GPC ignored)', signal, undefined, {}, false, 'no-consent'],
  ['plain target, an accept that lapsed at `at`', acceptExpired, undefined, {}, false, 'expired'],
  ['plain target, an accept lapsing after `at`', acceptLive, undefined, {}, true, 'consent'],
  ['plain target, gpc asked on: ignored', accept, undefined, { gpc: true }, true, 'consent'],
  ['specification, an accept', accept, optIn, {}, true, 'consent'],
  ['specification, an accept of the latest material version', acceptV2, material, {}, true, 'consent'],
  ['specification, an accept before a material change', acceptV1, material, {}, false, 'renewal-required'],
  ['specification, a decline before a material change stands', declineV1, material, {}, false, 'declined'],
  ['opt-out, no event', undefined, optOut, {}, true, 'opt-out'],
  ['opt-out, only action null', noAction, optOut, {}, true, 'opt-out'],
  ['opt-out, a decline', decline, optOut, {}, false, 'declined'],
  ['opt-out, a lapsed accept is no choice', acceptExpired, optOut, {}, true, 'opt-out'],
  ['opt-out, a GPC signal where GPC is ignored', signal, optOut, {}, true, 'opt-out'],
  ['US-CA honours GPC: a recorded signal', ev({ action: null, gpc: true, jurisdiction: 'US-CA' }), gpcOptOut, {}, false, 'gpc'],
  ['US-CA: the jurisdiction asked applies without an event', undefined, gpcOptOut, { jurisdiction: 'US-CA' }, true, 'opt-out'],
  ['US-CA: gpc asked on, no event', undefined, gpcOptOut, { jurisdiction: 'US-CA', gpc: true }, false, 'gpc'],
  ['US-CA: gpc asked on beats a choice made without it', ev({ action: true, jurisdiction: 'US-CA' }), gpcOptOut, { gpc: true }, false, 'gpc'],
  ['US-CA: a choice made with the signal on overrides it', ev({ ...acceptWithSignal, jurisdiction: 'US-CA' }), gpcOptOut, { gpc: true }, true, 'consent'],
  ['US-CA: an explicit accept after a signal', ev({ action: true, jurisdiction: 'US-CA' }), gpcOptOut, {}, true, 'consent'],
  ['US (parent of US-NY): opt-out, GPC ignored', ev({ action: null, gpc: true, jurisdiction: 'US-NY' }), gpcOptOut, {}, true, 'opt-out'],
  ["the event's jurisdiction wins over the one asked", ev({ action: null, jurisdiction: 'DE' }), gpcOptOut, { jurisdiction: 'US-CA' }, false, 'no-consent'],
  ['no jurisdiction: `*` (opt-in)', undefined, gpcOptOut, {}, false, 'no-consent'],
];

describe('decide', () => {
  test.each(rows)('%s', (_name, current, spec, extra, allowed, basis) => {
    const d = decide(current, { at: T0, spec, ...extra });
    expect({ allowed: d.allowed, basis: d.basis }).toEqual({ allowed, basis });
    // the regime is named for specification targets that need consent, and only then
    expect(d.regime !== undefined).toBe(spec !== undefined && spec !== contract);
  });

  test('the table covers every basis', () => {
    expect(new Set(rows.map((r) => r[5]))).toEqual(new Set(BASES));
  });

  test('expiry is judged at `at`, not now', () => {
    expect(decide(acceptExpired, { at: T0 - 1 }).basis).toBe('consent');
    expect(decide(acceptExpired, { at: T0 }).basis).toBe('expired');
  });
});

describe('lifecycle', () => {
  test('flags expiry from expiresAt on and renewal for any action before a material version', () => {
    expect(lifecycle(acceptExpired, T0 - 1, undefined)).toEqual({ expired: false, renewalRequired: false });
    expect(lifecycle(acceptExpired, T0, undefined)).toEqual({ expired: true, renewalRequired: false });
    expect(lifecycle(declineV1, T0, 2)).toEqual({ expired: false, renewalRequired: true });
    expect(lifecycle(acceptV2, T0, 2)).toEqual({ expired: false, renewalRequired: false });
  });
});
