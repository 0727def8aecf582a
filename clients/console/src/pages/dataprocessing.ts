import { api, ApiError } from '../api.js';
import { date, empty, errorBox, field, h, loading, mount } from '../dom.js';
import type { PageContext } from '../page.js';
import { mountApplicationPage, pageFrame, type Application } from './credentials.js';

interface Group {
  id: string;
  name: string;
  purpose: string;
  description: string;
}
interface Text {
  id: number;
  value: string;
  language: string;
  type: string | null;
}
type RegimeModel = 'opt-in' | 'opt-out' | 'notice';
type RegimeGpc = 'ignore' | 'opt-out';
/** How consent works per jurisdiction (docs/consent.md, Signals and regimes); answered normalised, `*` always there. */
type Regimes = Record<string, { model: RegimeModel; gpc: RegimeGpc }>;
interface Spec {
  id: string;
  regimes?: Regimes;
  data: string;
  purpose: string;
  action: string;
  sensitive: boolean;
  location: string;
  legalBasis: string | null;
  version: number;
  texts: Text[];
  updatedAt: string;
}
interface Version {
  version: number;
  createdAt: string;
  current: boolean;
  spec: Spec;
}
interface ConsentRequest {
  title: string;
  caption: string;
  items: Array<{ specId: string; data: string; purpose: string; text: Text | null; preselected?: boolean | null }>;
}

const ACTIONS = ['collect', 'store', 'use', 'analyze', 'profile', 'share', 'transfer', 'delete'];
const MODELS: RegimeModel[] = ['opt-in', 'opt-out', 'notice'];
const GPC: RegimeGpc[] = ['ignore', 'opt-out'];
const ANY = '*';
/** One line per jurisdiction, `*` first: `US-CA: opt-out, GPC opt-out`. */
const regimesText = (r: Regimes | undefined) =>
  Object.entries(r ?? { [ANY]: { model: 'opt-in', gpc: 'ignore' } })
    .map(([k, v]) => `${k}: ${v.model}, GPC ${v.gpc}`)
    .join('\n');
const DIFF_FIELDS: Array<[string, (s: Spec) => string]> = [
  ['data', (s) => s.data],
  ['purpose', (s) => s.purpose],
  ['action', (s) => s.action],
  ['sensitive', (s) => String(s.sensitive)],
  ['location', (s) => s.location],
  ['legal basis', (s) => s.legalBasis ?? ''],
  ['texts', (s) => s.texts.map((t) => `[${t.language}${t.type ? `/${t.type}` : ''}] ${t.value}`).join('\n')],
  ['regimes', (s) => regimesText(s.regimes)],
];

/** A JSON pointer's segment as the key it names (RFC 6901). */
const unpointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The regimes of a specification as a table: one row per jurisdiction (`*` first, always there),
 * its model and what a Global Privacy Control signal counts as. Editable for those who may
 * change: rows are added and removed, the whole map is saved at once (a new version); the
 * service's refusals (problem+json `errors`, e.g. `/regimes/US-XX`, `/regimes/US-CA/gpc`) are
 * shown at the row and control at fault.
 */
export function regimesEditor(
  spec: { id: string; data: string; regimes?: Regimes },
  canChange: boolean,
  save: (regimes: Regimes) => Promise<void>,
): HTMLElement {
  const uid = Math.random().toString(36).slice(2, 8);
  const rows: Array<{ tr: HTMLTableRowElement; key: HTMLInputElement; model: HTMLSelectElement; gpc: HTMLSelectElement; error: HTMLElement }> = [];
  const body = h('tbody', {});
  const status = h('div', { 'aria-live': 'polite' });
  const select = (label: string, values: string[], value: string) =>
    h(
      'select',
      { 'aria-label': label, disabled: !canChange },
      values.map((v) => h('option', { value: v, selected: v === value }, v)),
    );
  function addRow(key: string, model: RegimeModel, gpc: RegimeGpc): HTMLInputElement {
    const n = rows.length + 1;
    const errorId = `regime-${uid}-${n}-error`;
    const input = h('input', {
      value: key,
      'aria-label': `Jurisdiction ${n}`,
      size: 8,
      maxlength: 6,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'US-CA',
      readonly: key === ANY || !canChange,
      'aria-describedby': errorId,
    });
    const row = {
      key: input,
      model: select(`Model of jurisdiction ${n}`, MODELS, model),
      gpc: select(`Global Privacy Control of jurisdiction ${n}`, GPC, gpc),
      error: h('p', { id: errorId, class: 'field-error', 'aria-live': 'assertive' }),
      tr: h('tr', {}),
    };
    const remove =
      canChange && key !== ANY
        ? h(
            'button',
            {
              type: 'button',
              class: 'link danger',
              'aria-label': `Remove jurisdiction ${n}`,
              onclick: () => {
                row.tr.remove();
                rows.splice(rows.indexOf(row), 1);
              },
            },
            'Remove',
          )
        : null;
    mount(row.tr, h('td', {}, input, row.error), h('td', {}, row.model), h('td', {}, row.gpc), canChange ? h('td', {}, remove) : null);
    for (const c of [row.key, row.model, row.gpc]) c.setAttribute('aria-describedby', errorId);
    rows.push(row);
    body.appendChild(row.tr);
    return input;
  }
  const regimes = spec.regimes ?? { [ANY]: { model: 'opt-in', gpc: 'ignore' } };
  if (!regimes[ANY]) addRow(ANY, 'opt-in', 'ignore');
  for (const [k, v] of Object.entries(regimes)) addRow(k, v.model, v.gpc);

  const clearErrors = () => {
    for (const r of rows) {
      r.error.textContent = '';
      for (const c of [r.key, r.model, r.gpc]) c.removeAttribute('aria-invalid');
    }
  };
  /** Shows one error at its row and control; false when no row is at fault. */
  const showAt = (key: string, part: string | undefined, message: string): boolean => {
    const row = rows.find((r) => r.key.value.trim() === key);
    if (!row) return false;
    const control = part === 'model' ? row.model : part === 'gpc' ? row.gpc : row.key;
    control.setAttribute('aria-invalid', 'true');
    row.error.textContent = [row.error.textContent, `${part ? `${part}: ` : ''}${message}.`].filter(Boolean).join(' ');
    return true;
  };
  async function submit(): Promise<void> {
    clearErrors();
    const out: Regimes = {};
    let bad = false;
    for (const r of rows) {
      const key = r.key.value.trim();
      if (!key) bad = showAt(key, undefined, 'Enter a jurisdiction: an ISO 3166 code such as DE, US or US-CA') || bad;
      else if (out[key] || Object.keys(out).some((k) => k.toUpperCase() === key.toUpperCase()))
        bad = showAt(key, undefined, `${key.toUpperCase()} is named twice: keep one row`) || bad;
      else out[key] = { model: r.model.value as RegimeModel, gpc: r.gpc.value as RegimeGpc };
    }
    if (bad) return rows.find((r) => r.key.getAttribute('aria-invalid'))?.key.focus();
    mount(status, h('p', { class: 'state loading', role: 'status' }, 'Saving…'));
    try {
      await save(out);
      mount(status);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.problem.errors ?? []) : [];
      let shown = 0;
      for (const f of fields) {
        const [, top, key, part] = f.field.split('/');
        if (top === 'regimes' && key !== undefined && showAt(unpointer(key), part, f.message)) shown++;
      }
      if (shown && shown === fields.length) {
        mount(status, h('p', { class: 'state error', role: 'alert' }, 'Not saved: see the jurisdictions marked above.'));
        rows.find((r) => [r.key, r.model, r.gpc].some((c) => c.getAttribute('aria-invalid')))?.key.focus();
      } else mount(status, errorBox(err));
    }
  }
  return h(
    'div',
    { class: 'regimes' },
    h('h4', {}, 'Regimes'),
    h(
      'p',
      { class: 'hint' },
      'How consent works per jurisdiction: * is every jurisdiction not named, then ISO 3166 codes such as US or US-CA (the most specific wins). ' +
        'opt-in: nothing until accepted; opt-out: allowed until declined; notice: no choice. ' +
        'Global Privacy Control opt-out: the browser signal counts as a decline unless the subject chose otherwise. A change is a new version.',
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { 'aria-label': `Regimes of ${spec.data}` },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Jurisdiction', 'Model', 'Global Privacy Control', canChange ? 'Actions' : null].map((t) => (t ? h('th', { scope: 'col' }, t) : null)),
          ),
        ),
        body,
      ),
    ),
    canChange
      ? h(
          'div',
          { class: 'row wrap' },
          h('button', { type: 'button', class: 'secondary', onclick: () => addRow('', 'opt-out', 'opt-out').focus() }, 'Add jurisdiction'),
          h('button', { type: 'button', onclick: () => void submit() }, 'Save regimes'),
        )
      : null,
    status,
  );
}

const actionSelect = (value = 'use') =>
  h(
    'select',
    {},
    ACTIONS.map((a) => h('option', { value: a, selected: a === value }, a)),
  );

/** Side by side: each field of two versions, changed rows marked (not by colour alone). */
export function diffTable(a: Version, b: Version): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'diff', 'aria-label': `Differences between version ${a.version} and version ${b.version}` },
      h(
        'thead',
        {},
        h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, `Version ${a.version}`), h('th', { scope: 'col' }, `Version ${b.version}`)),
      ),
      h(
        'tbody',
        {},
        DIFF_FIELDS.map(([name, get]) => {
          const changed = get(a.spec) !== get(b.spec);
          return h(
            'tr',
            { class: changed ? 'changed' : '', 'data-field': name },
            h('th', { scope: 'row' }, name, changed ? h('span', { class: 'badge off' }, 'changed') : null),
            h('td', { class: changed ? 'old' : '' }, h('pre', { class: 'plain' }, get(a.spec))),
            h('td', { class: changed ? 'new' : '' }, h('pre', { class: 'plain' }, get(b.spec))),
          );
        }),
      ),
    ),
  );
}

/** What the parts of the page share: the chosen application's API, the status line, the runner that shows errors there, and whether the member may change things. */
interface Frame {
  base: string;
  out: HTMLElement;
  attempt: (fn: () => Promise<void>) => Promise<void>;
  canChange: boolean;
}

export async function dataProcessingPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const { out, body, attempt } = pageFrame();
  const lead = 'Groups of data-processing specifications, their texts and versions. Changes are recorded as made by the chosen application.';
  if (!(await mountApplicationPage(root, ctx, 'Data processing', lead, { out, body }, (app) => void groups(app)))) return;

  async function groups(app: Application): Promise<void> {
    const base = `/applications/${app.id}/dataprocessing`;
    const frame: Frame = { base, out, attempt, canChange: ctx.canChange };
    const list = h('div', {}, loading('groups'));
    const detail = h('div', {});
    const name = h('input', { required: true, maxlength: 200 });
    const purpose = h('input', { maxlength: 1000 });
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void attempt(async () => {
            const g = await api<Group>('POST', `${base}/dpgroups`, { name: name.value, purpose: purpose.value });
            mount(out, h('p', { class: 'state', role: 'status' }, `Group “${g.name}” created.`));
            name.value = purpose.value = '';
            await refresh(g.id);
          });
        },
      },
      h('h2', {}, 'New group'),
      field('Name', name),
      field('Purpose', purpose),
      h('button', { type: 'submit' }, 'Create group'),
    );
    mount(
      body,
      h('div', { class: 'split' }, h('nav', { 'aria-label': 'Groups', class: 'groups' }, h('h2', {}, 'Groups'), list, ctx.canChange ? form : null), detail),
    );

    async function refresh(select?: string): Promise<void> {
      try {
        const gs = await api<Group[]>('GET', `${base}/dpgroups?limit=100`);
        if (!gs.length) {
          mount(list, empty('No groups yet.'));
          return mount(detail);
        }
        mount(
          list,
          h(
            'ul',
            { class: 'plain-list' },
            gs.map((g) =>
              h(
                'li',
                {},
                h('button', { type: 'button', class: 'link', 'aria-pressed': g.id === select ? 'true' : 'false', onclick: () => void refresh(g.id) }, g.name),
              ),
            ),
          ),
        );
        const chosen = gs.find((g) => g.id === select) ?? gs[0]!;
        await group(chosen);
      } catch (err) {
        mount(list, errorBox(err));
      }
    }

    async function group(g: Group): Promise<void> {
      const specs = h('div', {}, loading('specifications'));
      const preview = h('div', {});
      const data = h('input', { required: true, maxlength: 500 });
      const purpose = h('input', { required: true, maxlength: 1000 });
      const action = actionSelect();
      const form = h(
        'form',
        {
          class: 'card',
          onsubmit: (e: Event) => {
            e.preventDefault();
            void attempt(async () => {
              const s = await api<Spec>('POST', `${base}/dpgroups/${g.id}/specs`, { data: data.value, purpose: purpose.value, action: action.value });
              mount(out, h('p', { class: 'state', role: 'status' }, `Specification “${s.data}” created.`));
              data.value = purpose.value = '';
              await listSpecs();
            });
          },
        },
        h('h3', {}, 'New specification'),
        h('div', { class: 'row wrap' }, field('Data', data), field('Purpose', purpose), field('Action', action)),
        h('button', { type: 'submit' }, 'Create specification'),
      );
      const showPolicy = () =>
        void attempt(async () => {
          const html = await api<string>('GET', `${base}/dpgroups/${g.id}/policy`);
          // The service's HTML, shown in a sandbox: no scripts, no same-origin access.
          mount(preview, h('h3', {}, 'Policy section'), h('iframe', { class: 'preview', sandbox: '', title: `Policy section of ${g.name}`, srcdoc: html }));
          mount(out);
        });
      const showRequest = () =>
        void attempt(async () => {
          const r = await api<ConsentRequest>('GET', `${base}/dpgroups/${g.id}/consent-request`);
          mount(
            preview,
            h('h3', {}, 'Consent request'),
            h(
              'div',
              { class: 'card consent-preview' },
              h('strong', {}, r.title),
              h('p', {}, r.caption),
              r.items.length
                ? h(
                    'ul',
                    {},
                    r.items.map((i) =>
                      h(
                        'li',
                        {},
                        h(
                          'label',
                          {},
                          h('input', { type: 'checkbox', disabled: true, checked: i.preselected === true }),
                          ' ',
                          i.text?.value ?? `${i.purpose} (${i.data})`,
                        ),
                      ),
                    ),
                  )
                : empty('No specification asks for consent yet.'),
            ),
          );
          mount(out);
        });
      mount(
        detail,
        h('h2', {}, g.name),
        g.purpose ? h('p', { class: 'lead' }, g.purpose) : null,
        ctx.canChange ? groupForm(frame, g, refresh) : null,
        h(
          'div',
          { class: 'row wrap' },
          h('button', { type: 'button', class: 'secondary', onclick: showPolicy }, 'Preview policy section'),
          h('button', { type: 'button', class: 'secondary', onclick: showRequest }, 'Preview consent request'),
        ),
        preview,
        h('h3', {}, 'Specifications'),
        specs,
        ctx.canChange ? form : null,
      );
      async function listSpecs(): Promise<void> {
        try {
          const ss = await api<Spec[]>('GET', `${base}/dpgroups/${g.id}/specs?limit=100`);
          if (!ss.length) return mount(specs, empty('No specifications in this group yet.'));
          mount(
            specs,
            ss.map((s) => specCard(frame, s)),
          );
        } catch (err) {
          mount(specs, errorBox(err));
        }
      }
      await listSpecs();
    }

    await refresh();
  }
}

/** Rename a group or change its purpose; delete it with its specifications. */
function groupForm(f: Frame, g: Group, refresh: (select?: string) => Promise<void>): HTMLElement {
  const { base, out, attempt } = f;
  const name = h('input', { value: g.name, required: true, maxlength: 200 });
  const purpose = h('input', { value: g.purpose, maxlength: 1000 });
  const remove = () =>
    void attempt(async () => {
      if (!confirm(`Delete the group “${g.name}” and its specifications? Their history stays, the group is gone.`)) return mount(out);
      await api('DELETE', `${base}/dpgroups/${g.id}`);
      mount(out, h('p', { class: 'state', role: 'status' }, `Group “${g.name}” deleted.`));
      await refresh();
    });
  return h(
    'details',
    { class: 'card' },
    h('summary', {}, 'Edit group'),
    h(
      'form',
      {
        'aria-label': `Edit group ${g.name}`,
        onsubmit: (e: Event) => {
          e.preventDefault();
          void attempt(async () => {
            const u = await api<Group>('PATCH', `${base}/dpgroups/${g.id}`, { name: name.value, purpose: purpose.value });
            mount(out, h('p', { class: 'state', role: 'status' }, `Group “${u.name}” saved.`));
            await refresh(u.id);
          });
        },
      },
      h('div', { class: 'row wrap' }, field('Group name', name), field('Group purpose', purpose)),
      h(
        'div',
        { class: 'row wrap' },
        h('button', { type: 'submit' }, 'Save group'),
        h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete group'),
      ),
    ),
  );
}

/** One specification, with its edit form, texts, regimes and history behind “Edit and history”. */
function specCard(f: Frame, s: Spec): HTMLElement {
  const { base, out, attempt, canChange } = f;
  const panel = h('div', {});
  const badge = h('span', { class: 'badge' }, `version ${s.version}`);
  const card = h(
    'section',
    { class: 'card', 'aria-label': `Specification ${s.data}`, 'data-spec': s.data },
    h(
      'div',
      { class: 'row wrap' },
      h('strong', {}, s.data),
      h('span', {}, `· ${s.action} · ${s.purpose}`),
      badge,
      h('button', { type: 'button', class: 'link', onclick: () => void open() }, 'Edit and history'),
    ),
    panel,
  );
  async function open(): Promise<void> {
    mount(panel, loading('the specification'));
    try {
      const [spec, versions] = await Promise.all([api<Spec>('GET', `${base}/dpspecs/${s.id}`), api<Version[]>('GET', `${base}/dpspecs/${s.id}/versions`)]);
      badge.textContent = `version ${spec.version}`;
      // The list holds the previous versions (newest first); the current one is the spec itself.
      const history = [...versions.filter((v) => v.version !== spec.version), { version: spec.version, createdAt: spec.updatedAt, current: true, spec }].sort(
        (x, y) => x.version - y.version,
      );
      mount(panel, canChange ? editForm(spec) : null, textsPart(spec), regimesPart(spec), historyPart(history));
    } catch (err) {
      mount(panel, errorBox(err));
    }
  }
  function editForm(spec: Spec): HTMLElement {
    const data = h('input', { value: spec.data, required: true });
    const purpose = h('input', { value: spec.purpose, required: true });
    const action = actionSelect(spec.action);
    const location = h('input', { value: spec.location });
    return h(
      'form',
      {
        onsubmit: (e: Event) => {
          e.preventDefault();
          void attempt(async () => {
            const u = await api<Spec>('PATCH', `${base}/dpspecs/${spec.id}`, {
              data: data.value,
              purpose: purpose.value,
              action: action.value,
              location: location.value,
            });
            mount(out, h('p', { class: 'state', role: 'status' }, `Saved as version ${u.version}.`));
            s = u;
            await open();
          });
        },
      },
      h('h4', {}, 'Edit'),
      h('div', { class: 'row wrap' }, field('Data', data), field('Purpose', purpose), field('Action', action), field('Location', location)),
      h(
        'div',
        { class: 'row wrap' },
        h('button', { type: 'submit' }, 'Save specification'),
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: () =>
              void attempt(async () => {
                if (!confirm(`Delete the specification “${spec.data}”? Consent requests no longer ask for it.`)) return mount(out);
                await api('DELETE', `${base}/dpspecs/${spec.id}`);
                mount(out, h('p', { class: 'state', role: 'status' }, `Specification “${spec.data}” deleted.`));
                card.remove();
              }),
          },
          'Delete specification',
        ),
      ),
    );
  }
  /** The regimes editor; a saved change is a new version, shown in the history. */
  function regimesPart(spec: Spec): HTMLElement {
    return regimesEditor(spec, canChange, async (regimes) => {
      const u = await api<Spec>('PATCH', `${base}/dpspecs/${spec.id}`, { regimes });
      mount(out, h('p', { class: 'state', role: 'status' }, `Regimes saved as version ${u.version}.`));
      s = u;
      await open();
    });
  }
  function textsPart(spec: Spec): HTMLElement {
    const value = h('input', { required: true, maxlength: 10000 });
    const language = h('input', { required: true, value: 'en', size: 3, pattern: '[A-Za-z]{2}' });
    return h(
      'div',
      {},
      h('h4', {}, 'Texts'),
      spec.texts.length
        ? h(
            'ul',
            {},
            spec.texts.map((t) => textItem(f, spec, t, open)),
          )
        : empty('No texts yet.'),
      canChange
        ? h(
            'form',
            {
              class: 'row wrap',
              onsubmit: (e: Event) => {
                e.preventDefault();
                void attempt(async () => {
                  await api('POST', `${base}/dpspecs/${spec.id}/texts`, { value: value.value, language: language.value });
                  mount(out, h('p', { class: 'state', role: 'status' }, 'Text added.'));
                  await open();
                });
              },
            },
            field('Text', value),
            field('Language', language),
            h('button', { type: 'submit', class: 'secondary' }, 'Add text'),
          )
        : null,
    );
  }
  return card;
}

/** One text: its language and value; for those who may change, Edit (in place) and Delete. */
function textItem(f: Frame, spec: Spec, t: Text, reopen: () => Promise<void>): HTMLElement {
  const { base, out, attempt, canChange } = f;
  const li = h('li', { 'data-text': t.id });
  const label = t.language + (t.type ? `/${t.type}` : '');
  const show = () =>
    mount(
      li,
      h('span', { class: 'badge' }, label),
      ' ',
      t.value,
      canChange
        ? h(
            'span',
            { class: 'row-actions' },
            h('button', { type: 'button', class: 'link', 'aria-label': `Edit text ${label}: ${t.value}`, onclick: edit }, 'Edit'),
            h('button', { type: 'button', class: 'link danger', 'aria-label': `Delete text ${label}: ${t.value}`, onclick: remove }, 'Delete'),
          )
        : null,
    );
  const remove = () =>
    void attempt(async () => {
      if (!confirm(`Delete the text “${t.value}”?`)) return mount(out);
      await api('DELETE', `${base}/dpspecs/${spec.id}/texts/${t.id}`);
      mount(out, h('p', { class: 'state', role: 'status' }, 'Text deleted.'));
      await reopen();
    });
  function edit(): void {
    const value = h('input', { value: t.value, required: true, maxlength: 10000 });
    const language = h('input', { value: t.language, required: true, size: 3, pattern: '[A-Za-z]{2}' });
    mount(
      li,
      h(
        'form',
        {
          class: 'row wrap',
          'aria-label': `Edit text ${label}`,
          onsubmit: (e: Event) => {
            e.preventDefault();
            void attempt(async () => {
              await api('PATCH', `${base}/dpspecs/${spec.id}/texts/${t.id}`, { value: value.value, language: language.value });
              mount(out, h('p', { class: 'state', role: 'status' }, 'Text saved.'));
              await reopen();
            });
          },
        },
        field('Text', value),
        field('Language', language),
        h('button', { type: 'submit' }, 'Save text'),
        h('button', { type: 'button', class: 'secondary', onclick: show }, 'Cancel'),
      ),
    );
    value.focus();
  }
  show();
  return li;
}

/** The versions of a specification, two of them compared side by side. */
function historyPart(versions: Version[]): HTMLElement {
  const diff = h('div', {});
  if (versions.length < 2) return h('div', {}, h('h4', {}, 'History'), empty('Only one version so far: edit the specification to compare versions.'));
  const pick = (label: string, chosen: number) =>
    h(
      'select',
      { 'aria-label': label },
      versions.map((v) =>
        h('option', { value: v.version, selected: v.version === chosen }, `version ${v.version} · ${date(v.createdAt)}${v.current ? ' (current)' : ''}`),
      ),
    );
  const newest = Math.max(...versions.map((v) => v.version));
  const left = pick('Compare version', newest - 1);
  const right = pick('with version', newest);
  const show = () => {
    const a = versions.find((v) => v.version === Number(left.value))!;
    const b = versions.find((v) => v.version === Number(right.value))!;
    mount(diff, diffTable(a, b));
  };
  left.addEventListener('change', show);
  right.addEventListener('change', show);
  show();
  return h('div', {}, h('h4', {}, 'History'), h('div', { class: 'row wrap' }, left, right), diff);
}
