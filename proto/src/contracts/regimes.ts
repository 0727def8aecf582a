import { iso31661, iso31662 } from 'iso-3166';
import { z } from 'zod';

/**
 * Jurisdictions and legal regimes (docs/consent.md, "Signals and regimes"): which ISO 3166 codes
 * Accord knows, the regimes a data processing specification declares per jurisdiction, which of
 * them applies to a code (most specific wins), and what a regime makes of a consent state and of
 * a Global Privacy Control signal. Pure functions, one place: the dataprocessing service
 * validates regimes and answers the views with them, the consent service validates the
 * jurisdiction of events and decides with them (the decisions API), the gateway documents them.
 */

// --- jurisdictions ------------------------------------------------------------------------

/** Officially assigned ISO 3166-1 alpha-2 codes (wooorm's iso-3166 list, kept with the standard). */
const COUNTRIES: ReadonlySet<string> = new Set(iso31661.map((c) => c.alpha2));
/** ISO 3166-2 subdivision codes and their parents (a country, or a larger subdivision). */
const PARENTS: ReadonlyMap<string, string> = new Map(iso31662.map((s) => [s.code, s.parent]));

/** What a jurisdiction code looks like (the document's pattern; the list decides which exist). */
export const JURISDICTION_PATTERN = '^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$';
export const JURISDICTION_MESSAGE = 'must be an ISO 3166-1 alpha-2 code (e.g. DE) or an ISO 3166-2 subdivision code (e.g. US-CA)';

/** The code in its ISO form (upper case) when it is a known ISO 3166-1 alpha-2 or ISO 3166-2 code; otherwise undefined. */
export function normalizeJurisdiction(code: string): string | undefined {
  if (typeof code !== 'string' || code.length > 6) return undefined;
  const c = code.toUpperCase();
  return COUNTRIES.has(c) || PARENTS.has(c) ? c : undefined;
}

/** The next less specific code: a subdivision's parent (up to its country); none for a country. */
export function parentJurisdiction(code: string): string | undefined {
  return PARENTS.get(code) ?? (code.includes('-') ? code.slice(0, code.indexOf('-')) : undefined);
}

export const Jurisdiction = z
  .string()
  .regex(new RegExp(JURISDICTION_PATTERN))
  .meta({
    description:
      'An ISO 3166-1 alpha-2 country code (`DE`) or an ISO 3166-2 subdivision code (`US-CA`), upper or lower case (answered upper case). Codes outside the ISO lists are refused.',
    examples: ['US-CA'],
    'x-error-message': JURISDICTION_MESSAGE,
  });

// --- regimes ------------------------------------------------------------------------------

/**
 * - opt-in: nothing is allowed until the subject accepts (Accord's default, as before regimes);
 * - opt-out: allowed until the subject declines;
 * - notice: no choice: the processing is shown for information.
 */
export const REGIME_MODELS = ['opt-in', 'opt-out', 'notice'] as const;
export type RegimeModel = (typeof REGIME_MODELS)[number];
/** What a Global Privacy Control signal counts as: nothing (`ignore`, the default) or a decline (`opt-out`). */
export const REGIME_GPC = ['ignore', 'opt-out'] as const;
export type RegimeGpc = (typeof REGIME_GPC)[number];

export interface Regime {
  model: RegimeModel;
  gpc: RegimeGpc;
}
/** Regimes by jurisdiction: `*` (every other jurisdiction), ISO 3166-1 alpha-2 or ISO 3166-2 codes. */
export type Regimes = Record<string, Regime>;
/** The regime that applies to a jurisdiction, and the key it was found under. */
export interface AppliedRegime extends Regime {
  key: string;
}

export const ANY_JURISDICTION = '*';
/** A specification without regimes: opt-in everywhere, GPC ignored (Accord's behaviour before regimes). */
export const DEFAULT_REGIMES: Readonly<Regimes> = Object.freeze({ [ANY_JURISDICTION]: Object.freeze({ model: 'opt-in', gpc: 'ignore' }) as Regime });
/** Jurisdictions one specification may name. */
export const MAX_REGIMES = 300;
export const REGIME_KEY_PATTERN = '^(\\*|[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?)$';

export const RegimeInput = z
  .strictObject({
    model: z.enum(REGIME_MODELS).describe('opt-in: nothing until accepted; opt-out: allowed until declined; notice: no choice, shown for information.'),
    gpc: z
      .enum(REGIME_GPC)
      .optional()
      .describe(
        'ignore (default): a Global Privacy Control signal changes nothing; opt-out: it counts as a decline where no explicit choice was made after it. Not with `notice`.',
      ),
  })
  .meta({ description: 'How consent works in one jurisdiction.' });

export const RegimesInput = z.record(z.string().regex(new RegExp(REGIME_KEY_PATTERN)), RegimeInput).meta({
  description: `Regimes by jurisdiction: \`*\` (every jurisdiction not named), ISO 3166-1 alpha-2 (\`US\`) or ISO 3166-2 (\`US-CA\`) codes, at most ${MAX_REGIMES}. The most specific wins (\`US-CA\` over \`US\` over \`*\`). \`*\` defaults to opt-in. A change is material (consents to earlier versions need renewal).`,
  maxProperties: MAX_REGIMES,
  examples: [{ '*': { model: 'opt-in' }, 'US-CA': { model: 'opt-out', gpc: 'opt-out' } }],
});

/** A field error of a regimes map, the path relative to the map (`/US-CA/model`). */
export interface RegimeError {
  field: string;
  message: string;
}

/** JSON pointer escaping of a key (RFC 6901). */
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks a regimes map as a client sent it and returns it normalised: keys in ISO form (upper
 * case), `gpc` made explicit, `*` present (opt-in when not sent), keys sorted. Every problem is
 * reported, with paths relative to the map.
 */
export function normalizeRegimes(input: unknown): { regimes: Regimes; errors: RegimeError[] } {
  const errors: RegimeError[] = [];
  const out: Regimes = {};
  if (input === undefined || input === null) return { regimes: { ...DEFAULT_REGIMES }, errors };
  if (typeof input !== 'object' || Array.isArray(input)) return { regimes: { ...DEFAULT_REGIMES }, errors: [{ field: '', message: 'must be an object' }] };
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length > MAX_REGIMES) errors.push({ field: '', message: `must name at most ${MAX_REGIMES} jurisdictions` });
  for (const [rawKey, value] of entries) {
    const key = rawKey === ANY_JURISDICTION ? rawKey : normalizeJurisdiction(rawKey);
    const at = `/${pointer(rawKey)}`;
    if (!key) {
      errors.push({ field: at, message: `is not \`*\` and ${JURISDICTION_MESSAGE.replace(/^must be/, 'not')}` });
      continue;
    }
    if (out[key]) {
      errors.push({ field: at, message: `names ${key} twice` });
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      errors.push({ field: at, message: 'must be an object with `model` (and optionally `gpc`)' });
      continue;
    }
    const { model, gpc, ...rest } = value as Record<string, unknown>;
    for (const extra of Object.keys(rest)) errors.push({ field: `${at}/${pointer(extra)}`, message: 'is not a known field' });
    if (!(REGIME_MODELS as readonly unknown[]).includes(model)) errors.push({ field: `${at}/model`, message: `must be one of: ${REGIME_MODELS.join(', ')}` });
    if (gpc !== undefined && gpc !== null && !(REGIME_GPC as readonly unknown[]).includes(gpc))
      errors.push({ field: `${at}/gpc`, message: `must be one of: ${REGIME_GPC.join(', ')}` });
    else if (model === 'notice' && gpc === 'opt-out')
      errors.push({ field: `${at}/gpc`, message: 'must be ignore under the notice model (there is no choice a signal could decline)' });
    out[key] = { model: model as RegimeModel, gpc: (gpc ?? 'ignore') as RegimeGpc };
  }
  if (!out[ANY_JURISDICTION]) out[ANY_JURISDICTION] = { ...DEFAULT_REGIMES[ANY_JURISDICTION]! };
  return { regimes: sortedRegimes(out), errors };
}

/** The same regimes with their keys in one order (`*` first, then by code): equal maps compare equal. */
export function sortedRegimes(r: Regimes): Regimes {
  const keys = Object.keys(r).sort((a, b) => (a === ANY_JURISDICTION ? -1 : b === ANY_JURISDICTION ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, { model: r[k]!.model, gpc: r[k]!.gpc }]));
}

/** Whether two regimes maps say the same (absent = the default). */
export function sameRegimes(a: Regimes | undefined, b: Regimes | undefined): boolean {
  return JSON.stringify(sortedRegimes(a ?? DEFAULT_REGIMES)) === JSON.stringify(sortedRegimes(b ?? DEFAULT_REGIMES));
}

/**
 * The regime that applies in a jurisdiction: the most specific key that names it or contains it
 * (`US-CA`, then `US`, then `*`); `*` without a jurisdiction; the default (opt-in) when even `*`
 * is missing.
 */
export function regimeFor(regimes: Regimes | undefined, jurisdiction?: string): AppliedRegime {
  const r = regimes && Object.keys(regimes).length ? regimes : DEFAULT_REGIMES;
  for (let code = jurisdiction ? jurisdiction.toUpperCase() : undefined; code; code = parentJurisdiction(code)) {
    const hit = r[code];
    if (hit) return { key: code, model: hit.model, gpc: hit.gpc ?? 'ignore' };
  }
  const any = r[ANY_JURISDICTION] ?? DEFAULT_REGIMES[ANY_JURISDICTION]!;
  return { key: ANY_JURISDICTION, model: any.model, gpc: any.gpc ?? 'ignore' };
}

// --- what a regime makes of events and signals ---------------------------------------------

/** The parts of a recorded consent event the rules read. */
export interface SignalledEvent {
  /** true accepted, false declined, null no action taken. */
  action: boolean | null;
  /** The event was recorded with a Global Privacy Control signal. */
  gpc?: boolean | undefined;
}

/**
 * - choice: an explicit accept or decline (`action` true or false), whatever its `gpc`;
 * - gpc-signal: the GPC signal observed with no explicit choice (`action` null, `gpc` true);
 * - no-action: anything else (`action` null).
 */
export type EventKind = 'choice' | 'gpc-signal' | 'no-action';

export function eventKind(e: SignalledEvent): EventKind {
  return e.action === true || e.action === false ? 'choice' : e.gpc === true ? 'gpc-signal' : 'no-action';
}

/** Whether a regime honours GPC: its signal counts as a decline. */
export const honoursGpc = (r: Regime): boolean => r.model !== 'notice' && r.gpc === 'opt-out';

/** Why a state is allowed or not under its regime (the decisions API's `basis` values that depend on the regime). */
export type RegimeBasis = 'consent' | 'declined' | 'no-consent' | 'opt-out' | 'gpc' | 'not-required';

/**
 * What a regime makes of a consent state, given its current (newest) event, or none:
 *
 * | regime | current event | allowed | basis |
 * |---|---|---|---|
 * | notice | any or none | yes | not-required |
 * | opt-in / opt-out | choice (accept / decline) | the choice | consent / declined |
 * | gpc opt-out | gpc-signal | no | gpc |
 * | opt-in | none, no-action (or gpc-signal, GPC ignored) | no | no-consent |
 * | opt-out | none, no-action (or gpc-signal, GPC ignored) | yes | opt-out |
 *
 * An explicit choice overrides any signal before it (the newest event decides); a GPC signal
 * recorded after a choice counts as a decline only where the regime honours GPC. Expiry and
 * renewal are judged by the caller before this (a lapsed or outdated accept is no choice).
 */
export function stateUnderRegime(regime: Regime, current: SignalledEvent | undefined): { allowed: boolean; basis: RegimeBasis } {
  if (regime.model === 'notice') return { allowed: true, basis: 'not-required' };
  const kind = current ? eventKind(current) : 'no-action';
  if (kind === 'choice') return current!.action ? { allowed: true, basis: 'consent' } : { allowed: false, basis: 'declined' };
  if (kind === 'gpc-signal' && honoursGpc(regime)) return { allowed: false, basis: 'gpc' };
  return regime.model === 'opt-out' ? { allowed: true, basis: 'opt-out' } : { allowed: false, basis: 'no-consent' };
}

/**
 * What a consent UI pre-selects for one item, and whether a GPC signal decided it:
 *
 * - notice: no choice (`preselected` null);
 * - the current event is a choice made with the signal on (`gpc: true`), or the regime does not
 *   honour GPC, or no signal is on: that choice;
 * - the regime honours GPC and the signal is on (`liveGpc`) and no choice was made with it, or
 *   the current event is a recorded signal: not selected, `gpcApplied` (the UI says so, and
 *   records the signal once: docs/consent.md);
 * - otherwise the model's default: opt-in not selected, opt-out selected.
 */
export function choiceShown(regime: Regime, liveGpc: boolean, current?: SignalledEvent): { preselected: boolean | null; gpcApplied: boolean } {
  if (regime.model === 'notice') return { preselected: null, gpcApplied: false };
  const kind = current ? eventKind(current) : 'no-action';
  const honours = honoursGpc(regime);
  if (kind === 'choice') {
    if (honours && liveGpc && current!.gpc !== true) return { preselected: false, gpcApplied: true };
    return { preselected: current!.action, gpcApplied: false };
  }
  if (honours && (liveGpc || kind === 'gpc-signal')) return { preselected: false, gpcApplied: true };
  return { preselected: regime.model === 'opt-out', gpcApplied: false };
}
