import { contracts } from '@accord/proto';
import { specTargetUrl } from './target';
import { chooseText } from './texts';
import type { GroupRecord, SpecRecord, TextRecord, TextType } from './model';

/**
 * What clients build UIs from: a group as a privacy-policy section (HTML), as a consent
 * request, and as a consent dashboard (the consent request plus a subject's current consent).
 */

export interface ViewOptions {
  baseUrl: string;
  /** Requested ISO 639-1 language ('' = none: English, then any language). */
  language: string;
  type: TextType;
  /** Where the subject is (upper case ISO code; undefined: unknown, the `*` regime). */
  jurisdiction?: string | undefined;
  /** The subject's browser sends a Global Privacy Control signal. */
  gpc?: boolean;
}

export interface ConsentItem {
  specId: string;
  target: string;
  text: TextRecord | null;
  data: string;
  purpose: string;
  action: string;
  sensitive: boolean;
  location: string;
  duration: number | null;
  legalBasis: string | null;
  externalHref: string | null;
  version: number;
  /** The specification's regime in the view's jurisdiction, what the UI pre-selects (null: no choice), and whether a GPC signal decided it. */
  regime: contracts.regimes.AppliedRegime;
  preselected: boolean | null;
  gpcApplied: boolean;
  /** The specification's regimes everywhere and its Google Consent Mode types (the web components set defaults per region from them). */
  regimes: contracts.regimes.Regimes;
  consentMode: string[];
}

export interface ConsentRequestView {
  groupId: string;
  title: string;
  caption: string;
  language: string;
  /** The jurisdiction and signal the items' regimes and pre-selections are for. */
  jurisdiction?: string | undefined;
  gpc: boolean;
  items: ConsentItem[];
}

/**
 * Title from the group name, caption from its description, one item per consent-target
 * specification, each with its regime in the view's jurisdiction and what a UI pre-selects
 * there (with the browser's GPC signal when it sends one; contracts/regimes.ts, choiceShown).
 */
export function buildConsentRequest(group: GroupRecord, specs: readonly SpecRecord[], opts: ViewOptions): ConsentRequestView {
  const gpc = opts.gpc === true;
  return {
    groupId: group.id,
    title: group.name,
    caption: group.description,
    language: opts.language,
    jurisdiction: opts.jurisdiction,
    gpc,
    items: specs
      .filter((s) => s.consentTarget)
      .map((s) => {
        const regime = contracts.regimes.regimeFor(s.regimes, opts.jurisdiction);
        return { ...itemOf(s, opts), regime, ...contracts.regimes.choiceShown(regime, gpc) };
      }),
  };
}

/** The facts of a consent request item. */
function itemOf(s: SpecRecord, opts: ViewOptions): Omit<ConsentItem, 'regime' | 'preselected' | 'gpcApplied'> {
  return {
    specId: s.id,
    target: specTargetUrl(opts.baseUrl, s.id),
    text: chooseText(s.texts, opts.language, opts.type),
    data: s.data,
    purpose: s.purpose,
    action: s.action,
    sensitive: s.sensitive,
    location: s.location,
    duration: s.duration,
    legalBasis: s.legalBasis,
    externalHref: s.externalHref,
    version: s.version,
    regimes: s.regimes,
    consentMode: s.consentMode ?? [],
  };
}

/** A current consent event as the consent service reports it. */
export interface CurrentEvent {
  id: string;
  target: string;
  scope: string;
  /** undefined: no action taken. */
  action?: boolean | undefined;
  createdAt?: Date | undefined;
  /** The specification version consented to (consent service), and whether it needs renewal. */
  targetVersion?: number | undefined;
  renewalRequired?: boolean | undefined;
  /** Whether a GPC signal was present (absent: the event does not say). */
  gpc?: boolean | undefined;
}

export type ConsentState = 'accepted' | 'declined' | 'no_action' | 'none';

export interface ScopeState {
  scope: string;
  state: Exclude<ConsentState, 'none'>;
  eventId: string;
  createdAt: Date | null;
  targetVersion?: number;
  /** The specification changed materially after the version consented to (a new answer is needed). */
  renewalRequired?: boolean;
  gpc?: boolean;
}

export interface DashboardItem {
  item: ConsentItem;
  /** State of the `default` scope; `none` when the subject has no event for it. */
  state: ConsentState;
  /** Current event of every scope of the target, `default` first, then by scope name. */
  scopes: ScopeState[];
}

export function stateOfAction(action: boolean | undefined): Exclude<ConsentState, 'none'> {
  return action === true ? 'accepted' : action === false ? 'declined' : 'no_action';
}

/**
 * The request's items with the subject's current events: every scope's, and the pre-selection
 * again from the `default` scope's current event (an explicit choice is shown; a GPC signal
 * declines where the regime honours it, unless the choice was made with the signal on).
 */
export function buildDashboard(request: ConsentRequestView, events: readonly CurrentEvent[]): DashboardItem[] {
  return request.items.map((item) => {
    const scopes = events
      .filter((e) => e.target === item.target)
      .map((e): ScopeState => ({
        scope: e.scope || 'default',
        state: stateOfAction(e.action),
        eventId: e.id,
        createdAt: e.createdAt ?? null,
        ...(e.targetVersion !== undefined ? { targetVersion: e.targetVersion } : {}),
        ...(e.renewalRequired ? { renewalRequired: true } : {}),
        ...(e.gpc !== undefined ? { gpc: e.gpc } : {}),
      }))
      .sort((a, b) => (a.scope === 'default' ? -1 : b.scope === 'default' ? 1 : a.scope.localeCompare(b.scope)));
    const def = scopes.find((s) => s.scope === 'default');
    const current = def && { action: def.state === 'accepted' ? true : def.state === 'declined' ? false : null, gpc: def.gpc };
    const shown = { ...item, ...contracts.regimes.choiceShown(item.regime, request.gpc, current) };
    return { item: shown, state: def ? def.state : 'none', scopes };
  });
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

function attrs(pairs: [string, string | number | boolean | null | undefined][]): string {
  return pairs
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join('');
}

/**
 * The group as a section of a privacy policy. Every piece of user text is HTML-escaped; the
 * group and each specification carry their URN in `data-ref`, and the machine-readable facts of
 * a specification are data attributes. Specifications without any text show their purpose.
 */
export function renderPolicySection(group: GroupRecord, specs: readonly SpecRecord[], opts: ViewOptions): string {
  const lines: string[] = [];
  lines.push(
    `<section${attrs([
      ['class', 'accord-dpgroup'],
      ['data-ref', `urn:accord:dpgroup:${group.id}`],
      ['lang', opts.language],
    ])}>`,
  );
  if (group.name) lines.push(`  <h2 class="accord-dpgroup-name">${escapeHtml(group.name)}</h2>`);
  if (group.description) lines.push(`  <p class="accord-dpgroup-description">${escapeHtml(group.description)}</p>`);
  if (group.purpose) lines.push(`  <p class="accord-dpgroup-purpose">${escapeHtml(group.purpose)}</p>`);
  lines.push('  <ul class="accord-dpspecs">');
  for (const s of specs) {
    const text = chooseText(s.texts, opts.language, opts.type);
    lines.push(
      `    <li${attrs([
        ['class', 'accord-dpspec'],
        ['data-ref', `urn:accord:dpspec:${s.id}`],
        ['data-target', specTargetUrl(opts.baseUrl, s.id)],
        ['data-version', s.version],
        ['data-data', s.data],
        ['data-purpose', s.purpose],
        ['data-action', s.action],
        ['data-sensitive', s.sensitive],
        ['data-consent-target', s.consentTarget],
        ['data-location', s.location],
        ['data-duration-days', s.duration],
        ['data-legal-basis', s.legalBasis],
        ['lang', text?.language],
      ])}>`,
    );
    if (text)
      lines.push(
        `      <p${attrs([
          ['class', 'accord-dptext'],
          ['data-text-id', text.id],
          ['data-text-type', text.type],
        ])}>${escapeHtml(text.value)}</p>`,
      );
    else lines.push(`      <p class="accord-dptext">${escapeHtml(s.purpose)}</p>`);
    if (s.externalHref) lines.push(`      <a class="accord-dpspec-external" href="${escapeHtml(s.externalHref)}">${escapeHtml(s.externalHref)}</a>`);
    lines.push('    </li>');
  }
  lines.push('  </ul>');
  lines.push('</section>');
  return lines.join('\n') + '\n';
}
