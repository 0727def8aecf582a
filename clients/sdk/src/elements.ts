/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `<accord-consent-request>` and `<accord-consent-dashboard>`: framework-free custom elements on
 * top of the SDK, for a page that holds only a consent session token (see docs/sdk.md).
 * Attributes: `group`, `session-token`, `lang`, `base-url` (default: the page's origin), `type`,
 * `jurisdiction` (ISO 3166; default: whatever the gateway's view answers). The browser's Global
 * Privacy Control signal (`navigator.globalPrivacyControl`) goes to the views, which pre-select per
 * regime; where a regime honours it, a visible line says so and the signal is recorded once per
 * subject, target and version (docs/sdk.md, docs/consent.md "Signals and regimes").
 * Google Consent Mode v2 (`consent-mode`, `wait-for-update`): the elements send
 * `gtag('consent', 'default', …)` per region from the specifications' regimes, then `update` from
 * the subject's stored choices and on every choice (docs/consent.md, Standards).
 * No network call is made before the element is visible (except with `consent-mode`, which loads at
 * once: Google tags wait for it). Themable through CSS custom properties
 * (`--accord-*`) and `::part(...)`; right-to-left languages get `dir="rtl"`.
 */
import { Accord, AccordError, type ConsentEvent, type ConsentInput, type components } from './index';
import { REQUIRED_TYPES, defaultsOf, floorOf, gtagConsent, parseMapping, typesOf, updateOf, type Mapping } from './consent-mode';

type Item = components['schemas']['DpConsentRequestItem'];
type DashboardItem = components['schemas']['DpDashboard']['items'][number];
/** What the views answer about the signals they used (each item says its regime, `preselected` and `gpcApplied`). */
type ViewSignals = { jurisdiction: string | null };

const RTL = new Set(['ar', 'fa', 'he', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ku']);
const STRINGS = {
  en: {
    acceptAll: 'Accept all',
    rejectAll: 'Reject all',
    save: 'Save choices',
    saved: 'Your choices were saved.',
    legalBasis: 'Legal basis',
    history: 'History',
    accepted: 'accepted',
    declined: 'declined',
    no_action: 'no choice',
    none: 'not asked yet',
    loading: 'Loading…',
    failed: 'Could not reach the consent service.',
    gpc: 'Your browser’s Global Privacy Control signal was applied.',
    gpc_state: 'declined by Global Privacy Control',
    notice: 'For your information: there is no choice to make.',
  },
  de: {
    acceptAll: 'Alle akzeptieren',
    rejectAll: 'Alle ablehnen',
    save: 'Auswahl speichern',
    saved: 'Ihre Auswahl wurde gespeichert.',
    legalBasis: 'Rechtsgrundlage',
    history: 'Verlauf',
    accepted: 'zugestimmt',
    declined: 'abgelehnt',
    no_action: 'keine Auswahl',
    none: 'noch nicht gefragt',
    loading: 'Wird geladen…',
    failed: 'Der Einwilligungsdienst ist nicht erreichbar.',
    gpc: 'Das Global-Privacy-Control-Signal Ihres Browsers wurde angewendet.',
    gpc_state: 'abgelehnt durch Global Privacy Control',
    notice: 'Zu Ihrer Information: Es gibt nichts auszuwählen.',
  },
} as const;
type Strings = { [K in keyof (typeof STRINGS)['en']]: string };

/** The legal bases' names (Art. 6(1) GDPR) in each UI language; an unknown basis shows its code. */
const LEGAL_BASIS: Record<keyof typeof STRINGS, Record<string, string>> = {
  en: {
    CONSENT: 'Consent (Art. 6(1)(a) GDPR)',
    CONTRACT: 'Contract (Art. 6(1)(b) GDPR)',
    LEGAL_OBLIGATION: 'Legal obligation (Art. 6(1)(c) GDPR)',
    VITAL_INTEREST: 'Vital interest (Art. 6(1)(d) GDPR)',
    PUBLIC_INTEREST: 'Public interest (Art. 6(1)(e) GDPR)',
    OFFICIAL_AUTHORITY: 'Official authority (Art. 6(1)(e) GDPR)',
    LEGITIMATE_INTEREST: 'Legitimate interest (Art. 6(1)(f) GDPR)',
    LEGITIMATE_INTEREST_3RDPARTY: 'Legitimate interest of a third party (Art. 6(1)(f) GDPR)',
    CUSTOM: 'Other',
  },
  de: {
    CONSENT: 'Einwilligung (Art. 6 Abs. 1 lit. a DSGVO)',
    CONTRACT: 'Vertragserfüllung (Art. 6 Abs. 1 lit. b DSGVO)',
    LEGAL_OBLIGATION: 'Rechtliche Verpflichtung (Art. 6 Abs. 1 lit. c DSGVO)',
    VITAL_INTEREST: 'Lebenswichtige Interessen (Art. 6 Abs. 1 lit. d DSGVO)',
    PUBLIC_INTEREST: 'Öffentliches Interesse (Art. 6 Abs. 1 lit. e DSGVO)',
    OFFICIAL_AUTHORITY: 'Öffentliche Gewalt (Art. 6 Abs. 1 lit. e DSGVO)',
    LEGITIMATE_INTEREST: 'Berechtigtes Interesse (Art. 6 Abs. 1 lit. f DSGVO)',
    LEGITIMATE_INTEREST_3RDPARTY: 'Berechtigtes Interesse eines Dritten (Art. 6 Abs. 1 lit. f DSGVO)',
    CUSTOM: 'Sonstige',
  },
};

const STYLE = `
:host { display: block; font: var(--accord-font, 1rem/1.5 system-ui, sans-serif); color: var(--accord-fg, #1a1a1a);
  background: var(--accord-bg, #fff); border: 1px solid var(--accord-border, #767676); border-radius: var(--accord-radius, 8px);
  padding: var(--accord-padding, 1rem 1.25rem); max-inline-size: var(--accord-max-width, 40rem); }
:host([hidden]) { display: none; }
h2 { font-size: 1.25em; margin-block: 0 .25em; }
p { margin-block: 0 .75em; }
ul { list-style: none; padding: 0; margin: 0 0 1em; }
li { padding-block: .5em; border-block-end: 1px solid var(--accord-divider, #d0d0d0); }
label { display: flex; gap: .6em; align-items: flex-start; cursor: pointer; }
input[type=checkbox] { inline-size: 1.25em; block-size: 1.25em; margin: .15em 0 0; accent-color: var(--accord-accent, #0b57d0); flex: none; }
.basis, .state, .muted { font-size: .875em; color: var(--accord-muted, #4a4a4a); }
.basis { margin-inline-start: 1.85em; display: block; }
.buttons { display: flex; flex-wrap: wrap; gap: .5em; }
button { font: inherit; padding: .5em 1em; border-radius: var(--accord-radius, 8px); cursor: pointer;
  border: 2px solid var(--accord-accent, #0b57d0); background: var(--accord-button-bg, #fff); color: var(--accord-accent, #0b57d0); }
button.primary { background: var(--accord-accent, #0b57d0); color: var(--accord-accent-fg, #fff); }
button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid var(--accord-focus, #1a1a1a); outline-offset: 2px; }
details { margin-inline-start: 1.85em; font-size: .875em; }
.gpc { font-size: .875em; border-inline-start: 4px solid var(--accord-accent, #0b57d0); padding-inline-start: .6em; }
.notice { display: block; }
[role=status] { min-block-size: 1.5em; margin-block-start: .5em; }
`;

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The claims a page needs from its session token (it is verified by the gateway, not here). */
export function sessionClaims(token: string): { subject: string; issuer: string; groupId?: string } {
  const part = token.split('.')[1] ?? '';
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; cis?: string; grp?: string };
    return { subject: String(json.sub ?? ''), issuer: String(json.cis ?? ''), groupId: json.grp };
  } catch {
    return { subject: '', issuer: '' };
  }
}

const Base = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

abstract class AccordElement extends Base {
  static observedAttributes = ['group', 'session-token', 'lang', 'base-url', 'type', 'jurisdiction', 'consent-mode', 'wait-for-update'];
  protected root: ShadowRoot;
  private visible = false;
  private observer?: IntersectionObserver;
  private uid = Math.random().toString(36).slice(2, 8);
  /** The GPC signals being recorded: an explicit choice waits for them, so that it stays the newest event. */
  private signalling: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
  }

  connectedCallback(): void {
    this.applyDirection();
    // Busy until loaded, including what it records on load (the GPC signal): pages and tests can wait for it.
    this.setAttribute('aria-busy', 'true');
    if (this.hasAttribute('consent-mode')) {
      // Before any tag fires: the types named (or those Google requires in the EEA) denied until Accord answers.
      consentFloor(this.mapping, this.waitForUpdate);
      this.visible = true;
      void this.load();
      return;
    }
    // No network call before the element is on screen.
    this.observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      this.observer?.disconnect();
      this.visible = true;
      void this.load();
    });
    this.observer.observe(this);
  }
  disconnectedCallback(): void {
    this.observer?.disconnect();
  }
  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (name === 'lang') this.applyDirection();
    if (old !== value && this.visible) void this.load();
  }

  /** Fetches and renders again (e.g. a dashboard after the request on the same page saved). */
  reload(): Promise<void> {
    return this.visible ? this.load() : Promise.resolve();
  }

  protected get lang2(): string {
    return (this.getAttribute('lang') || document.documentElement.lang || 'en').slice(0, 2).toLowerCase();
  }
  protected get uiLang(): keyof typeof STRINGS {
    return this.lang2 in STRINGS ? (this.lang2 as keyof typeof STRINGS) : 'en';
  }
  protected get t(): Strings {
    return STRINGS[this.uiLang];
  }
  protected eid(suffix: string): string {
    return `accord-${this.uid}-${suffix}`;
  }
  /**
   * The identity this element records and reads under: its consent session's subject (a device or
   * cookie id for an anonymous visitor). Informational: after sign-in the backend links the
   * identity it minted the session for (docs/sdk.md, "After sign-in"), never one a page sends it.
   */
  get identity(): string {
    return this.session.subject;
  }

  protected get session() {
    return sessionClaims(this.getAttribute('session-token') ?? '');
  }
  protected get groupId(): string {
    return this.getAttribute('group') ?? this.session.groupId ?? '';
  }
  protected client(): Accord {
    return new Accord({ baseUrl: this.getAttribute('base-url') || location.origin, token: this.getAttribute('session-token') ?? '' });
  }
  /** The browser's Global Privacy Control signal: true or false where the browser has one, undefined where it does not. */
  protected get gpc(): boolean | undefined {
    const g = (globalThis.navigator as { globalPrivacyControl?: unknown } | undefined)?.globalPrivacyControl;
    return typeof g === 'boolean' ? g : undefined;
  }
  /** The views' query: language, text type, the `jurisdiction` attribute and the GPC signal when on. */
  protected query(): { lang?: string; type?: 'default' | 'short' | 'children' | 'legal'; jurisdiction?: string; gpc?: boolean } {
    const type = this.getAttribute('type') as 'default' | 'short' | 'children' | 'legal' | null;
    const jurisdiction = this.getAttribute('jurisdiction')?.trim();
    return { lang: this.lang2, ...(type ? { type } : {}), ...(jurisdiction ? { jurisdiction } : {}), ...(this.gpc ? { gpc: true } : {}) };
  }
  /** The `consent-mode` attribute's mapping (purpose or specification id → Consent Mode types). */
  protected get mapping(): Mapping {
    return parseMapping(this.getAttribute('consent-mode') ?? '');
  }
  /** `wait-for-update` in milliseconds (default 500): how long Google tags wait for the update. */
  protected get waitForUpdate(): number {
    const n = Number(this.getAttribute('wait-for-update') ?? '');
    return this.hasAttribute('wait-for-update') && Number.isInteger(n) && n >= 0 ? n : 500;
  }
  /** Sends the Consent Mode defaults of the items' regimes (once per element); false when no item governs a type. */
  protected consentDefaults(items: readonly Item[]): boolean {
    const commands = defaultsOf(items, this.mapping, this.gpc === true, this.waitForUpdate);
    if (!this.defaultsSent) commands.forEach((c) => gtagConsent('default', c));
    this.defaultsSent ||= commands.length > 0;
    return commands.length > 0;
  }
  private defaultsSent = false;
  /** Sends a Consent Mode update for the decided items (nothing when no type is decided). */
  protected consentUpdate(entries: readonly { item: Item; granted: boolean; decided: boolean }[]): void {
    const state = updateOf(entries.map((e) => ({ types: typesOf(e.item, this.mapping), granted: e.granted, decided: e.decided })));
    if (Object.keys(state).length) gtagConsent('update', state);
  }
  private applyDirection(): void {
    if (!this.hasAttribute('dir')) this.setAttribute('dir', RTL.has(this.lang2) ? 'rtl' : 'ltr');
  }

  protected async load(): Promise<void> {
    if (!this.getAttribute('session-token') || !this.groupId) return this.removeAttribute('aria-busy');
    this.setAttribute('aria-busy', 'true');
    this.root.innerHTML = `<style>${STYLE}</style><p role="status" part="status">${esc(this.t.loading)}</p>`;
    try {
      await this.render();
    } catch (err) {
      this.root.innerHTML = `<style>${STYLE}</style><p role="alert" part="error">${esc(this.t.failed)}</p>`;
      this.dispatchEvent(new CustomEvent('accord-error', { detail: err, bubbles: true, composed: true }));
    } finally {
      this.removeAttribute('aria-busy');
    }
  }
  protected abstract render(): Promise<void>;

  /**
   * An event as the components record it: the version shown, the view's jurisdiction (its regime
   * decides what the event means) and the browser's GPC signal when the browser has one.
   */
  private event(view: ViewSignals, item: Item, action: boolean | null): ConsentInput {
    const { subject, issuer } = this.session;
    const gpc = this.gpc;
    return {
      subject,
      issuer,
      target: item.target,
      action,
      targetVersion: item.version,
      ...(view.jurisdiction ? { jurisdiction: view.jurisdiction } : {}),
      ...(gpc !== undefined ? { gpc } : {}),
    };
  }
  private recordEvents(events: ConsentInput[]): Promise<ConsentEvent[]> {
    return this.client().recordConsent(events);
  }

  /**
   * Records explicit choices (one event per specification, all or nothing) and announces them.
   * Made with the signal on, they carry `gpc: true` and override it: no signal is recorded for
   * them afterwards.
   */
  protected async record(view: ViewSignals, choices: { item: Item; action: boolean }[]): Promise<ConsentEvent[]> {
    await this.signalling;
    const events = await this.recordEvents(choices.map((c) => this.event(view, c.item, c.action)));
    if (this.gpc) for (const c of choices) this.mark(c.item);
    this.dispatchEvent(new CustomEvent('accord-consent', { detail: { events }, bubbles: true, composed: true }));
    return events;
  }

  /**
   * Records the GPC signal (`action: null, gpc: true`) for the items it declined, once per
   * subject, target and version: `due` are the items whose current event does not carry it yet.
   * Remembered in localStorage per (issuer, subject, target, version), so that the consent
   * request need not ask again on the next page view. Announced as `accord-gpc`.
   */
  protected async recordSignals(view: ViewSignals, due: Item[]): Promise<boolean> {
    if (!due.length) return false;
    const events = await this.recordEvents(due.map((i) => ({ ...this.event(view, i, null), gpc: true })));
    due.forEach((i) => this.mark(i));
    this.dispatchEvent(new CustomEvent('accord-gpc', { detail: { events }, bubbles: true, composed: true }));
    return true;
  }
  /** Runs the signal work before any explicit choice is recorded; its failure is an `accord-error`, never the UI's. */
  protected signalsFirst(work: () => Promise<void>): Promise<void> {
    this.signalling = this.signalling.then(work).catch((err: unknown) => {
      this.dispatchEvent(new CustomEvent('accord-error', { detail: err, bubbles: true, composed: true }));
    });
    return this.signalling;
  }
  private signalKey(item: Item): string {
    const { subject, issuer } = this.session;
    return `accord-gpc:${JSON.stringify([issuer, subject, item.target, item.version])}`;
  }
  /** Whether this browser already recorded (or saw) the signal for the item's version, or a choice made with it. */
  protected marked(item: Item): boolean {
    try {
      const storage = globalThis.localStorage;
      return storage ? storage.getItem(this.signalKey(item)) !== null : false;
    } catch {
      return false; // storage blocked: the view decides
    }
  }
  protected mark(item: Item): void {
    try {
      globalThis.localStorage?.setItem(this.signalKey(item), '1');
    } catch {
      // storage blocked or full: the next view asks again
    }
  }
  /** The visible line saying that the GPC signal decided some choices (their inputs point to it). */
  protected gpcLine(items: Item[]): string {
    return items.some((i) => i.gpcApplied) ? `<p class="gpc" part="gpc" id="${this.eid('gpc')}">${esc(this.t.gpc)}</p>` : '';
  }
  protected describedBy(item: Item, own: string): string {
    return item.gpcApplied ? `${own} ${this.eid('gpc')}` : own;
  }
  protected status(text: string): void {
    const s = this.root.querySelector('[role=status]');
    if (s) s.textContent = text;
  }

  /** The shared top of both elements: style, titled section, caption, the GPC line and the item list. */
  protected frame(title: string, caption: string, items: string, gpcLine = ''): string {
    return `<style>${STYLE}</style>
<section part="container" aria-labelledby="${this.eid('title')}">
  <h2 part="title" id="${this.eid('title')}">${esc(title)}</h2>
  ${caption ? `<p part="caption">${esc(caption)}</p>` : ''}
  ${gpcLine}
  <ul part="items">${items}</ul>`;
  }
  /** An item with no choice to make (the notice model): its label and the note, no input. */
  protected noticeItem(item: Item, n: number): string {
    return `<li part="item notice-item">
  <span part="label" ${item.text?.language ? `lang="${esc(item.text.language)}"` : ''}>${esc(this.itemLabel(item))}</span>
  <span class="basis notice" part="notice">${esc(this.t.notice)}</span>
  <span id="${this.eid(`b${n}`)}">${this.basis(item)}</span></li>`;
  }
  protected itemLabel(item: Item): string {
    return item.text?.value || item.purpose;
  }
  protected basis(item: Item): string {
    return item.legalBasis
      ? `<span class="basis" part="legal-basis">${esc(this.t.legalBasis)}: ${esc(LEGAL_BASIS[this.uiLang][item.legalBasis] ?? item.legalBasis)}</span>`
      : '';
  }
}

function check<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || r.data === undefined) throw new AccordError(r.response.status, (r.error ?? {}) as never);
  return r.data;
}

/** `<accord-consent-request group session-token lang jurisdiction>`: one choice per consent-target specification. */
export class AccordConsentRequest extends AccordElement {
  protected async render(): Promise<void> {
    const req = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/consent-request', {
        params: { path: { group_id: this.groupId }, query: this.query() as never },
      }),
    );
    const t = this.t;
    const items = req.items
      .map((item, n) =>
        item.preselected === null
          ? this.noticeItem(item, n)
          : `<li part="item">
  <label part="choice"><input type="checkbox" id="${this.eid(`c${n}`)}" data-n="${n}" ${item.preselected ? 'checked' : ''} aria-describedby="${this.describedBy(item, this.eid(`b${n}`))}">
  <span part="label" ${item.text?.language ? `lang="${esc(item.text.language)}"` : ''}>${esc(this.itemLabel(item))}</span></label>
  <span id="${this.eid(`b${n}`)}">${this.basis(item)}</span></li>`,
      )
      .join('');
    this.root.innerHTML = `${this.frame(req.title, req.caption, items, this.gpcLine(req.items))}
  <div class="buttons" part="buttons">
    <button type="button" part="button accept-all" data-all="true">${esc(t.acceptAll)}</button>
    <button type="button" part="button reject-all" data-all="false">${esc(t.rejectAll)}</button>
    <button type="button" class="primary" part="button save" data-save>${esc(t.save)}</button>
  </div>
  <p role="status" part="status" aria-live="polite"></p>
</section>`;
    const boxes = [...this.root.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button')];
    const governed = this.consentDefaults(req.items);
    for (const button of buttons) {
      button.addEventListener('click', async () => {
        if (button.dataset.all) boxes.forEach((b) => (b.checked = button.dataset.all === 'true'));
        buttons.forEach((b) => (b.disabled = true));
        try {
          await this.record(
            req,
            boxes.map((b) => ({ item: req.items[Number(b.dataset.n)]!, action: b.checked })),
          );
          if (governed)
            this.consentUpdate(req.items.map((item, n) => ({ item, granted: boxes.find((b) => Number(b.dataset.n) === n)?.checked ?? true, decided: true })));
          this.status(t.saved);
        } catch (err) {
          this.status(err instanceof AccordError ? `${t.failed} (${err.status})` : t.failed);
        } finally {
          buttons.forEach((b) => (b.disabled = false));
        }
      });
    }
    await this.signalsFirst(() => this.signalsOnce(req));
    if (governed) await this.storedUpdate();
  }

  /** The Consent Mode update on load: the subject's stored choices (and recorded signals), from the dashboard view. */
  private async storedUpdate(): Promise<void> {
    const { subject, issuer } = this.session;
    const dash = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/dashboard', {
        params: { path: { group_id: this.groupId }, query: { subject, issuer, ...this.query() } as never },
      }),
    );
    this.consentUpdate(dash.items.map(storedEntry));
  }

  /**
   * The consent request does not know the subject's choices: for the items the signal declined
   * that this browser has not marked, the dashboard view (same jurisdiction and signal) tells
   * which current events do not carry the signal yet; those get it recorded.
   */
  private async signalsOnce(req: components['schemas']['DpConsentRequest']): Promise<void> {
    const unmarked = req.items.filter((i) => i.gpcApplied && !this.marked(i));
    if (!unmarked.length) return;
    const { subject, issuer } = this.session;
    const dash = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/dashboard', {
        params: { path: { group_id: this.groupId }, query: { subject, issuer, ...this.query() } as never },
      }),
    );
    const due: Item[] = [];
    for (const item of unmarked) {
      const now = dash.items.find((d) => d.target === item.target);
      if (now && signalDue(now)) due.push(item);
      else this.mark(item); // already recorded, or a choice made with the signal on
    }
    await this.recordSignals(req, due);
  }
}

/**
 * Whether a dashboard item needs the GPC signal recorded: the signal decided it and the current
 * event of its `default` scope does not carry the signal for this version (once per subject,
 * target and version).
 */
function signalDue(item: DashboardItem): boolean {
  if (!item.gpcApplied) return false;
  const current = item.scopes.find((s) => s.scope === 'default');
  return !(current?.gpc === true && (current.targetVersion ?? 0) >= item.version);
}

/** A dashboard item's Consent Mode entry: decided when there is a stored event or nothing to choose. */
function storedEntry(item: DashboardItem): { item: Item; granted: boolean; decided: boolean } {
  return { item, granted: item.preselected ?? true, decided: item.preselected === null || item.state !== 'none' };
}

/** The floor of Consent Mode, sent once per page by the first element with `consent-mode`. */
function consentFloor(mapping: Mapping, waitForUpdate: number): void {
  const w = globalThis as { __accordConsentFloor?: boolean };
  if (w.__accordConsentFloor) return;
  w.__accordConsentFloor = true;
  const named = [...new Set([...mapping.values()].flat())];
  gtagConsent('default', floorOf(named.length ? named : REQUIRED_TYPES, waitForUpdate));
}

/** `<accord-consent-dashboard group session-token lang jurisdiction>`: current state per specification, toggles, history. */
export class AccordConsentDashboard extends AccordElement {
  protected async render(): Promise<void> {
    const { subject, issuer } = this.session;
    const dash = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/dashboard', {
        params: { path: { group_id: this.groupId }, query: { subject, issuer, ...this.query() } as never },
      }),
    );
    const t = this.t;
    const stateOf = (item: DashboardItem) => (item.gpcApplied && !signalDue(item) && item.state === 'no_action' ? 'gpc' : item.state);
    const items = dash.items
      .map((item, n) => {
        if (item.preselected === null) return this.noticeItem(item, n);
        const on = item.preselected === undefined ? item.state === 'accepted' : item.preselected;
        const state = stateOf(item);
        return `<li part="item">
  <label part="choice"><input type="checkbox" role="switch" id="${this.eid(`c${n}`)}" data-n="${n}" ${on ? 'checked' : ''} aria-describedby="${this.describedBy(item, this.eid(`s${n}`))}">
  <span part="label" ${item.text?.language ? `lang="${esc(item.text.language)}"` : ''}>${esc(this.itemLabel(item))}</span></label>
  <span id="${this.eid(`s${n}`)}"><span class="basis state" part="state" data-state="${state}">${esc(state === 'gpc' ? t.gpc_state : t[state])}</span>${this.basis(item)}</span>
  <details part="history" data-target="${esc(item.target)}"><summary>${esc(t.history)}</summary><ol class="muted"></ol></details></li>`;
      })
      .join('');
    this.root.innerHTML = `${this.frame(dash.title, dash.caption, items, this.gpcLine(dash.items))}
  <p role="status" part="status" aria-live="polite"></p>
</section>`;
    const governed = this.consentDefaults(dash.items);
    const switches = [...this.root.querySelectorAll<HTMLInputElement>('input[role=switch]')];
    const decided = new Set(dash.items.filter((i) => storedEntry(i).decided));
    for (const box of switches) {
      box.addEventListener('change', async () => {
        box.disabled = true;
        try {
          await this.record(dash, [{ item: dash.items[Number(box.dataset.n)]!, action: box.checked }]);
          if (governed) {
            decided.add(dash.items[Number(box.dataset.n)]!);
            this.consentUpdate(
              dash.items.map((item, n) => ({
                item,
                granted: item.preselected === null || (switches.find((b) => Number(b.dataset.n) === n)?.checked ?? false),
                decided: decided.has(item),
              })),
            );
          }
          const state = box.closest('li')!.querySelector<HTMLElement>('[data-state]')!;
          state.dataset.state = box.checked ? 'accepted' : 'declined';
          state.textContent = box.checked ? t.accepted : t.declined;
          this.status(t.saved);
          const details = box.closest('li')!.querySelector('details')!;
          if (details.open) await this.history(details);
        } catch (err) {
          box.checked = !box.checked;
          this.status(err instanceof AccordError ? `${t.failed} (${err.status})` : t.failed);
        } finally {
          box.disabled = false;
          box.focus();
        }
      });
    }
    for (const details of this.root.querySelectorAll<HTMLDetailsElement>('details')) {
      details.addEventListener('toggle', () => void (details.open && this.history(details)));
    }
    // The view knows the subject's current events: it alone decides which signals are due.
    const due = dash.items.filter(signalDue);
    dash.items.filter((i) => i.gpcApplied && !signalDue(i)).forEach((i) => this.mark(i));
    await this.signalsFirst(async () => {
      if (!(await this.recordSignals(dash, due))) return;
      for (const item of due) {
        const state = this.root.querySelector<HTMLElement>(`#${this.eid(`s${dash.items.indexOf(item)}`)} [data-state]`);
        if (state) {
          state.dataset.state = 'gpc';
          state.textContent = t.gpc_state;
        }
      }
    });
    if (governed) this.consentUpdate(dash.items.map((i) => (due.includes(i) ? { item: i, granted: false, decided: true } : storedEntry(i))));
  }

  /** The item's events, newest first (its history, withdrawals included). */
  private async history(details: HTMLDetailsElement): Promise<void> {
    const { subject, issuer } = this.session;
    const accord = this.client();
    const list = details.querySelector('ol')!;
    const events: ConsentEvent[] = [];
    for await (const e of accord.pages(() =>
      accord.api.GET('/consent/v0/consents/search', { params: { query: { subject, issuer, target: details.dataset.target!, limit: 50 } as never } }),
    )) {
      events.push(e as ConsentEvent);
      if (events.length >= 200) break;
    }
    const t = this.t;
    const word = (e: ConsentEvent) => (e.action === true ? t.accepted : e.action === false ? t.declined : e.gpc === true ? t.gpc_state : t.no_action);
    list.innerHTML = events
      .map(
        (e) =>
          `<li part="history-item"><time datetime="${esc(e.createdAt)}">${esc(new Date(e.createdAt).toLocaleString(this.lang2))}</time>: ${esc(word(e))}</li>`,
      )
      .join('');
  }
}

/** Registers both elements (idempotent); the bundle calls it on load. */
export function defineAccordElements(registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  if (!registry) return;
  if (!registry.get('accord-consent-request')) registry.define('accord-consent-request', AccordConsentRequest);
  if (!registry.get('accord-consent-dashboard')) registry.define('accord-consent-dashboard', AccordConsentDashboard);
}
