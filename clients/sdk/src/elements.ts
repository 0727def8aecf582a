/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * `<accord-consent-request>` and `<accord-consent-dashboard>`: framework-free custom elements on
 * top of the SDK, for a page that holds only a consent session token (see docs/sdk.md).
 * Attributes: `group`, `session-token`, `lang`, `base-url` (default: the page's origin), `type`.
 * No network call is made before the element is visible. Themable through CSS custom properties
 * (`--accord-*`) and `::part(...)`; right-to-left languages get `dir="rtl"`.
 */
import { Accord, AccordError, type ConsentEvent, type components } from './index';

type Item = components['schemas']['DpConsentRequestItem'];
type DashboardItem = components['schemas']['DpDashboard']['items'][number];

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
  static observedAttributes = ['group', 'session-token', 'lang', 'base-url', 'type'];
  protected root: ShadowRoot;
  private visible = false;
  private observer?: IntersectionObserver;
  private uid = Math.random().toString(36).slice(2, 8);

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
  }

  connectedCallback(): void {
    this.applyDirection();
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
  protected get session() {
    return sessionClaims(this.getAttribute('session-token') ?? '');
  }
  protected get groupId(): string {
    return this.getAttribute('group') ?? this.session.groupId ?? '';
  }
  protected client(): Accord {
    return new Accord({ baseUrl: this.getAttribute('base-url') || location.origin, token: this.getAttribute('session-token') ?? '' });
  }
  protected query(): { lang?: string; type?: 'default' | 'short' | 'children' | 'legal' } {
    const type = this.getAttribute('type') as 'default' | 'short' | 'children' | 'legal' | null;
    return { lang: this.lang2, ...(type ? { type } : {}) };
  }
  private applyDirection(): void {
    if (!this.hasAttribute('dir')) this.setAttribute('dir', RTL.has(this.lang2) ? 'rtl' : 'ltr');
  }

  protected async load(): Promise<void> {
    if (!this.getAttribute('session-token') || !this.groupId) return;
    this.root.innerHTML = `<style>${STYLE}</style><p role="status" part="status">${esc(this.t.loading)}</p>`;
    try {
      await this.render();
    } catch (err) {
      this.root.innerHTML = `<style>${STYLE}</style><p role="alert" part="error">${esc(this.t.failed)}</p>`;
      this.dispatchEvent(new CustomEvent('accord-error', { detail: err, bubbles: true, composed: true }));
    }
  }
  protected abstract render(): Promise<void>;

  /** Records the choices (one event per specification, all or nothing) and announces them. */
  protected async record(choices: { target: string; action: boolean }[]): Promise<ConsentEvent[]> {
    const { subject, issuer } = this.session;
    const events = await this.client().recordConsent(choices.map((c) => ({ subject, issuer, target: c.target, action: c.action })));
    this.dispatchEvent(new CustomEvent('accord-consent', { detail: { events }, bubbles: true, composed: true }));
    return events;
  }
  protected status(text: string): void {
    const s = this.root.querySelector('[role=status]');
    if (s) s.textContent = text;
  }

  /** The shared top of both elements: style, titled section, caption and the item list. */
  protected frame(title: string, caption: string, items: string): string {
    return `<style>${STYLE}</style>
<section part="container" aria-labelledby="${this.eid('title')}">
  <h2 part="title" id="${this.eid('title')}">${esc(title)}</h2>
  ${caption ? `<p part="caption">${esc(caption)}</p>` : ''}
  <ul part="items">${items}</ul>`;
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

/** `<accord-consent-request group session-token lang>`: one choice per consent-target specification. */
export class AccordConsentRequest extends AccordElement {
  protected async render(): Promise<void> {
    const req = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/consent-request', {
        params: { path: { group_id: this.groupId }, query: this.query() as never },
      }),
    );
    const t = this.t;
    const items = req.items
      .map(
        (item, n) => `<li part="item">
  <label part="choice"><input type="checkbox" id="${this.eid(`c${n}`)}" data-target="${esc(item.target)}" aria-describedby="${this.eid(`b${n}`)}">
  <span part="label" ${item.text?.language ? `lang="${esc(item.text.language)}"` : ''}>${esc(this.itemLabel(item))}</span></label>
  <span id="${this.eid(`b${n}`)}">${this.basis(item)}</span></li>`,
      )
      .join('');
    this.root.innerHTML = `${this.frame(req.title, req.caption, items)}
  <div class="buttons" part="buttons">
    <button type="button" part="button accept-all" data-all="true">${esc(t.acceptAll)}</button>
    <button type="button" part="button reject-all" data-all="false">${esc(t.rejectAll)}</button>
    <button type="button" class="primary" part="button save" data-save>${esc(t.save)}</button>
  </div>
  <p role="status" part="status" aria-live="polite"></p>
</section>`;
    const boxes = [...this.root.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button')];
    for (const button of buttons) {
      button.addEventListener('click', async () => {
        if (button.dataset.all) boxes.forEach((b) => (b.checked = button.dataset.all === 'true'));
        buttons.forEach((b) => (b.disabled = true));
        try {
          await this.record(boxes.map((b) => ({ target: b.dataset.target!, action: b.checked })));
          this.status(t.saved);
        } catch (err) {
          this.status(err instanceof AccordError ? `${t.failed} (${err.status})` : t.failed);
        } finally {
          buttons.forEach((b) => (b.disabled = false));
        }
      });
    }
  }
}

/** `<accord-consent-dashboard group session-token lang>`: current state per specification, toggles, history. */
export class AccordConsentDashboard extends AccordElement {
  protected async render(): Promise<void> {
    const { subject, issuer } = this.session;
    const dash = check(
      await this.client().api.GET('/dataprocessing/v0/dpgroups/{group_id}/dashboard', {
        params: { path: { group_id: this.groupId }, query: { subject, issuer, ...this.query() } as never },
      }),
    );
    const t = this.t;
    const items = dash.items
      .map(
        (item: DashboardItem, n) => `<li part="item">
  <label part="choice"><input type="checkbox" role="switch" id="${this.eid(`c${n}`)}" data-target="${esc(item.target)}" ${item.state === 'accepted' ? 'checked' : ''} aria-describedby="${this.eid(`s${n}`)}">
  <span part="label" ${item.text?.language ? `lang="${esc(item.text.language)}"` : ''}>${esc(this.itemLabel(item))}</span></label>
  <span id="${this.eid(`s${n}`)}"><span class="basis state" part="state" data-state="${item.state}">${esc(t[item.state])}</span>${this.basis(item)}</span>
  <details part="history" data-target="${esc(item.target)}"><summary>${esc(t.history)}</summary><ol class="muted"></ol></details></li>`,
      )
      .join('');
    this.root.innerHTML = `${this.frame(dash.title, dash.caption, items)}
  <p role="status" part="status" aria-live="polite"></p>
</section>`;
    for (const box of this.root.querySelectorAll<HTMLInputElement>('input[role=switch]')) {
      box.addEventListener('change', async () => {
        box.disabled = true;
        try {
          await this.record([{ target: box.dataset.target!, action: box.checked }]);
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
    const word = (a: boolean | null) => (a === true ? t.accepted : a === false ? t.declined : t.no_action);
    list.innerHTML = events
      .map(
        (e) =>
          `<li part="history-item"><time datetime="${esc(e.createdAt)}">${esc(new Date(e.createdAt).toLocaleString(this.lang2))}</time>: ${esc(word(e.action))}</li>`,
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
