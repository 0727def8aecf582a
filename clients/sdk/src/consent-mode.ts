/**
 * Google Consent Mode v2 from Accord's specifications (docs/consent.md, Standards): which Consent
 * Mode types a specification governs, the `default` state per region from its regimes, and the
 * state an `update` carries from the subject's choices. A type is granted only when every
 * specification mapped to it is. Pure functions; the web components (elements.ts) send them.
 */

export const CONSENT_MODE_TYPES = [
  'ad_storage',
  'ad_user_data',
  'ad_personalization',
  'analytics_storage',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;
export type ConsentModeType = (typeof CONSENT_MODE_TYPES)[number];
/** What Google requires from every EEA site: the floor the elements deny before anything is known. */
export const REQUIRED_TYPES: readonly ConsentModeType[] = ['ad_storage', 'ad_user_data', 'ad_personalization', 'analytics_storage'];

export type ConsentState = Partial<Record<ConsentModeType, 'granted' | 'denied'>>;
export interface Regime {
  model: string;
  gpc: string;
}
/** What the views say of a specification (DpConsentRequestItem). */
export interface ModeItem {
  specId: string;
  purpose: string;
  consentMode?: readonly string[];
  regimes?: Readonly<Record<string, Regime>>;
}
/** A `consent-mode` attribute's mapping: purpose or specification id → types. */
export type Mapping = ReadonlyMap<string, readonly ConsentModeType[]>;

const isType = (t: string): t is ConsentModeType => (CONSENT_MODE_TYPES as readonly string[]).includes(t);

/**
 * The `consent-mode` attribute: `"analytics: analytics_storage; newsletter: ad_user_data
 * ad_personalization"` maps purposes (or specification ids) to types; empty: the
 * specifications' own `consentMode`. Unknown types are ignored (the console says so).
 */
export function parseMapping(value: string): Map<string, ConsentModeType[]> {
  const out = new Map<string, ConsentModeType[]>();
  for (const part of value.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const key = part.slice(0, colon).trim();
    const types = part
      .slice(colon + 1)
      .split(/[\s,]+/)
      .filter(Boolean);
    const known = types.filter(isType);
    if (known.length !== types.length) console.warn(`accord: unknown Consent Mode type(s) for ${key}: ${types.filter((t) => !isType(t)).join(', ')}`);
    if (key) out.set(key, known);
  }
  return out;
}

/** The types an item governs: the attribute's mapping (by specification id, then purpose), else the specification's. */
export function typesOf(item: ModeItem, mapping: Mapping): ConsentModeType[] {
  const mapped = mapping.get(item.specId) ?? mapping.get(item.purpose);
  return [...(mapped ?? (item.consentMode ?? []).filter(isType))];
}

/** The regime in a jurisdiction: its own key, then its country's, then `*` (as the service picks it). */
export function regimeFor(regimes: Readonly<Record<string, Regime>> | undefined, key: string): Regime {
  const r = regimes ?? {};
  return r[key] ?? r[key.split('-')[0]!] ?? r['*'] ?? { model: 'opt-in', gpc: 'ignore' };
}

/** Whether a regime lets processing start before any choice: opt-out and notice do, unless it honours a GPC signal that is on. */
export function grantedByDefault(regime: Regime, gpc: boolean): boolean {
  if (regime.model === 'opt-in') return false;
  return !(gpc && regime.model === 'opt-out' && regime.gpc === 'opt-out');
}

/** Every type governed by one of the items → granted when each of its items is. */
export function stateOf(entries: readonly { types: readonly ConsentModeType[]; granted: boolean }[]): ConsentState {
  const out: ConsentState = {};
  for (const type of CONSENT_MODE_TYPES) {
    const own = entries.filter((e) => e.types.includes(type));
    if (own.length) out[type] = own.every((e) => e.granted) ? 'granted' : 'denied';
  }
  return out;
}

/**
 * What an `update` says from choices: each type whose every specification is decided (a stored
 * choice, a recorded signal, or nothing to choose); a type with an undecided one keeps its default.
 */
export function updateOf(entries: readonly { types: readonly ConsentModeType[]; granted: boolean; decided: boolean }[]): ConsentState {
  const state = stateOf(entries);
  for (const e of entries) if (!e.decided) for (const t of e.types) delete state[t];
  return state;
}

/** One `gtag('consent', 'default', …)` argument. */
export type DefaultCommand = ConsentState & { region?: string[]; wait_for_update: number };

/**
 * The `default` commands from the items' regimes: first the `*` regime (no region), then one per
 * set of jurisdictions named by any regime that end up in the same state (`region`, ISO 3166).
 */
export function defaultsOf(items: readonly ModeItem[], mapping: Mapping, gpc: boolean, waitForUpdate: number): DefaultCommand[] {
  const governed = items.map((item) => ({ item, types: typesOf(item, mapping) })).filter((g) => g.types.length);
  if (!governed.length) return [];
  const at = (key: string) => stateOf(governed.map((g) => ({ types: g.types, granted: grantedByDefault(regimeFor(g.item.regimes, key), gpc) })));
  const keys = [...new Set(governed.flatMap((g) => Object.keys(g.item.regimes ?? {})))].filter((k) => k !== '*').sort();
  const groups = new Map<string, { state: ConsentState; region: string[] }>();
  for (const key of keys) {
    const state = at(key);
    const id = JSON.stringify(state);
    const group = groups.get(id) ?? { state, region: [] };
    group.region.push(key);
    groups.set(id, group);
  }
  return [
    { ...at('*'), wait_for_update: waitForUpdate },
    ...[...groups.values()].map((g) => ({ ...g.state, region: g.region, wait_for_update: waitForUpdate })),
  ];
}

/** The floor sent before anything is known: the types given, all denied. */
export function floorOf(types: readonly ConsentModeType[], waitForUpdate: number): DefaultCommand {
  return { ...Object.fromEntries(types.map((t) => [t, 'denied'])), wait_for_update: waitForUpdate };
}

/**
 * Sends a Consent Mode command the way Google's snippet does: through the page's `gtag` when it
 * has one, else an `arguments` object pushed on `dataLayer` (gtag.js reads only those as commands).
 */
export function gtagConsent(command: 'default' | 'update', state: object): void {
  const w = globalThis as unknown as { gtag?: (...args: unknown[]) => void; dataLayer?: unknown[] };
  if (typeof w.gtag === 'function') return w.gtag('consent', command, state);
  w.dataLayer = w.dataLayer ?? [];
  const layer = w.dataLayer;
  (function push(..._args: unknown[]) {
    // eslint-disable-next-line prefer-rest-params
    layer.push(arguments);
  })('consent', command, state);
}
