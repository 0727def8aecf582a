import { api, ApiError } from '../api.js';
import { checkboxes, checkedValues, date, empty, errorBox, field, h, loading, mount, secretBox } from '../dom.js';
import type { PageContext } from '../page.js';

export interface Application {
  id: string;
  name: string;
  clientId: string;
  scopes: string[];
  createdAt: string;
  disabledAt: string | null;
  secretRotatedAt: string | null;
  previousSecretExpiresAt: string | null;
  allowedOrigins: string[];
}

const SCOPES = ['consent', 'dataprocessing', 'webhooks'];
const GRACE = [
  ['0', 'old one stops now'],
  ['3600', 'old one valid 1 hour'],
  ['86400', 'old one valid 24 hours'],
  ['604800', 'old one valid 7 days'],
] as const;

const graceSelect = () =>
  h(
    'select',
    {},
    GRACE.map(([v, l]) => h('option', { value: v, selected: v === '86400' }, l)),
  );

/** Runs a change, showing its error next to the form instead of losing it. */
async function attempt(out: HTMLElement, fn: () => Promise<void>): Promise<void> {
  mount(out, h('p', { class: 'state loading', role: 'status' }, 'Working…'));
  try {
    await fn();
  } catch (err) {
    mount(out, errorBox(err));
  }
}

/**
 * Why a value is not an origin (null when it is), as the oauth service decides it: http(s),
 * a host, an optional port, nothing else. The service checks again and has the last word.
 */
export function originProblem(value: string): string | null {
  if (!value) return 'Enter an origin, e.g. https://shop.example.';
  if (value.includes('*')) return 'Wildcards are not allowed: list each origin.';
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return 'This is not an origin: write it as scheme://host[:port], e.g. https://shop.example.';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The scheme must be http or https.';
  if (u.username || u.password) return 'An origin has no user name or password.';
  if (u.search || u.hash || (u.pathname !== '/' && u.pathname !== '') || !/^[a-z]+:\/\/[^/?#]+\/?$/i.test(value))
    return 'An origin has no path, query or fragment: keep only scheme://host[:port].';
  return null;
}

/**
 * The origins editor of one application, in `panel`: add and remove, each change saved at once
 * (the list is replaced), then `refresh` redraws the applications.
 */
function originsEditor(panel: HTMLElement, a: Application, refresh: () => Promise<void>): void {
  const input = h('input', {
    id: 'new-origin',
    name: 'origin',
    inputmode: 'url',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'https://shop.example',
    maxlength: 300,
    'aria-describedby': 'new-origin-hint new-origin-error',
  });
  const error = h('p', { id: 'new-origin-error', class: 'field-error', 'aria-live': 'assertive' });
  const status = h('div', { 'aria-live': 'polite' });
  const showError = (message: string) => {
    error.textContent = message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };
  const clearError = () => {
    error.textContent = '';
    input.removeAttribute('aria-invalid');
  };
  /** Saves the whole list; a refusal of the new entry is shown at the field, anything else in the status line. */
  const save = async (origins: string[], added: string | null, done: string) => {
    mount(status, h('p', { class: 'state loading', role: 'status' }, 'Saving…'));
    try {
      const updated = await api<Application>('PUT', `/applications/${a.id}/origins`, { origins });
      a = updated;
      render();
      mount(status, h('p', { class: 'state', role: 'status' }, done));
      await refresh();
    } catch (err) {
      const fields = err instanceof ApiError ? (err.problem.errors ?? []) : [];
      const atNew = added !== null ? fields.find((f) => f.field === `/origins/${origins.length - 1}`) : undefined;
      if (atNew) {
        mount(status);
        showError(`Not saved: ${atNew.message}.`);
      } else mount(status, errorBox(err));
    }
  };
  const list = h('div', {});
  const render = () =>
    mount(
      list,
      a.allowedOrigins.length
        ? h(
            'ul',
            { class: 'origins', 'aria-label': `Allowed origins of ${a.name}` },
            a.allowedOrigins.map((o) =>
              h(
                'li',
                {},
                h('code', {}, o),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    'aria-label': `Remove ${o}`,
                    onclick: () => {
                      clearError();
                      void save(
                        a.allowedOrigins.filter((x) => x !== o),
                        null,
                        `${o} removed.`,
                      ).then(() => input.focus());
                    },
                  },
                  'Remove',
                ),
              ),
            ),
          )
        : empty('No origins: no web page may use this application’s consent sessions.'),
    );
  render();
  const form = h(
    'form',
    {
      novalidate: true,
      onsubmit: (e: Event) => {
        e.preventDefault();
        clearError();
        const value = input.value.trim();
        const problem = originProblem(value);
        if (problem) return showError(problem);
        const canonical = new URL(value).origin;
        if (a.allowedOrigins.includes(canonical)) return showError(`${canonical} is already allowed.`);
        void save([...a.allowedOrigins, value], value, `${canonical} added.`).then(() => {
          if (!input.getAttribute('aria-invalid')) {
            input.value = '';
            input.focus();
          }
        });
      },
    },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'new-origin' }, 'New origin'),
      h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Add origin')),
      h('p', { id: 'new-origin-hint', class: 'hint' }, 'scheme://host[:port], e.g. https://shop.example or http://localhost:3000 — no path, no wildcard.'),
      error,
    ),
  );
  mount(
    panel,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'origins-title' },
      h('h2', { id: 'origins-title', tabindex: '-1' }, `Allowed origins of “${a.name}”`),
      h('p', { class: 'hint' }, 'Web pages on these origins may call the API with this application’s consent sessions (CORS). Changes apply at once.'),
      status,
      list,
      form,
      h('button', { type: 'button', class: 'secondary', onclick: () => mount(panel) }, 'Close'),
    ),
  );
  input.focus();
}

export async function applicationsPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const list = h('div', {}, loading('applications'));
  const originsPanel = h('div', {});
  const out = h('div', { 'aria-live': 'polite' });
  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const form = h(
    'form',
    {
      class: 'card',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void attempt(out, async () => {
          const r = await api<{ application: Application; clientSecret: string }>('POST', '/applications', {
            name: name.value,
            scopes: checkedValues(form, 'scopes'),
          });
          mount(
            out,
            h(
              'div',
              { class: 'card success' },
              h('h3', {}, `Application “${r.application.name}” created`),
              h('p', {}, 'Client id: ', h('code', {}, r.application.clientId)),
              secretBox('Client secret', r.clientSecret),
            ),
          );
          name.value = '';
          await refresh();
        });
      },
    },
    h('h2', {}, 'New application'),
    field('Name', name),
    checkboxes('scopes', 'Scopes', SCOPES),
    h('button', { type: 'submit' }, 'Create application'),
  );
  mount(
    root,
    h('h1', {}, 'Applications'),
    h('p', { class: 'lead' }, 'Each application has its own client credentials, tokens, webhooks and statistics.'),
    out,
    list,
    originsPanel,
    ctx.canChange ? form : null,
  );

  async function refresh(): Promise<void> {
    try {
      const apps = await api<Application[]>('GET', '/applications');
      if (!apps.length) return mount(list, empty('No applications yet.', ctx.canChange ? 'Create the first one below.' : ''));
      mount(
        list,
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            {},
            h('caption', { class: 'sr-only' }, 'Applications'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Name', 'Client id', 'Scopes', 'Allowed origins', 'Status', 'Created', ctx.canChange ? 'Actions' : null].map((t) =>
                  t ? h('th', { scope: 'col' }, t) : null,
                ),
              ),
            ),
            h(
              'tbody',
              {},
              apps.map((a) =>
                h(
                  'tr',
                  { 'data-app': a.name },
                  h('th', { scope: 'row' }, a.name),
                  h('td', {}, h('code', {}, a.clientId)),
                  h('td', {}, a.scopes.join(', ')),
                  h(
                    'td',
                    { 'data-origins': a.name },
                    a.allowedOrigins.length
                      ? h(
                          'ul',
                          { class: 'plain' },
                          a.allowedOrigins.map((o) => h('li', {}, h('code', {}, o))),
                        )
                      : h('span', { class: 'hint' }, 'none'),
                    ctx.canChange
                      ? h(
                          'button',
                          {
                            type: 'button',
                            class: 'link',
                            'aria-label': `Edit allowed origins of ${a.name}`,
                            onclick: () => originsEditor(originsPanel, a, refresh),
                          },
                          'Edit origins',
                        )
                      : null,
                  ),
                  h(
                    'td',
                    {},
                    a.disabledAt ? h('span', { class: 'badge off' }, 'disabled') : h('span', { class: 'badge on' }, 'active'),
                    a.previousSecretExpiresAt ? h('div', { class: 'hint' }, `old secret valid until ${date(a.previousSecretExpiresAt)}`) : null,
                  ),
                  h('td', {}, date(a.createdAt)),
                  ctx.canChange ? h('td', { class: 'actions' }, a.disabledAt ? '—' : appActions(a)) : null,
                ),
              ),
            ),
          ),
        ),
      );
    } catch (err) {
      mount(list, errorBox(err));
    }
  }

  function appActions(a: Application): HTMLElement {
    const grace = graceSelect();
    grace.setAttribute('aria-label', `Grace period for the old secret of ${a.name}`);
    return h(
      'div',
      { class: 'row' },
      grace,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () =>
            void attempt(out, async () => {
              const r = await api<{ application: Application; clientSecret: string }>('POST', `/applications/${a.id}/rotate-secret`, {
                graceSeconds: Number(grace.value),
              });
              mount(
                out,
                h(
                  'div',
                  { class: 'card success' },
                  h('h3', {}, `New secret for “${a.name}”`),
                  secretBox(
                    'Client secret',
                    r.clientSecret,
                    r.application.previousSecretExpiresAt
                      ? `Shown only once. The old secret works until ${date(r.application.previousSecretExpiresAt)}.`
                      : 'Shown only once. The old secret no longer works.',
                  ),
                ),
              );
              await refresh();
            }),
        },
        'Rotate secret',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () => {
            if (!confirm(`Disable “${a.name}”? It gets no more tokens and its refresh tokens are revoked.`)) return;
            void attempt(out, async () => {
              await api('POST', `/applications/${a.id}/disable`);
              mount(out, h('p', { class: 'state', role: 'status' }, `“${a.name}” is disabled.`));
              await refresh();
            });
          },
        },
        'Disable',
      ),
    );
  }
  await refresh();
}

/** A select of the account's applications (remembers the choice in ctx.appId). */
/** The parts of a page about one application: a live status line, the body, and attempt (errors shown in the status line). */
export function pageFrame() {
  const out = h('div', { 'aria-live': 'polite' });
  return { out, body: h('div', {}), attempt: (fn: () => Promise<void>) => attempt(out, fn) };
}

/**
 * Mounts a page about one application: its title and lead, the application picker (which calls
 * onApp with the chosen application), then the frame's status line and body. False when the
 * applications could not be read (the error is shown instead).
 */
export async function mountApplicationPage(
  root: HTMLElement,
  ctx: PageContext,
  title: string,
  lead: string,
  frame: { out: HTMLElement; body: HTMLElement },
  onApp: (app: Application) => void,
): Promise<boolean> {
  mount(root, h('h1', {}, title), loading('applications'));
  try {
    const picker = await applicationPicker(ctx, onApp);
    mount(root, h('h1', {}, title), h('p', { class: 'lead' }, lead), picker, frame.out, frame.body);
    return true;
  } catch (err) {
    mount(root, h('h1', {}, title), errorBox(err));
    return false;
  }
}

export async function applicationPicker(ctx: PageContext, onChange: (app: Application) => void): Promise<HTMLElement> {
  const apps = (await api<Application[]>('GET', '/applications')).filter((a) => !a.disabledAt);
  if (!apps.length) return empty('No active application in this account.', h('a', { href: '#/applications' }, 'Create one first.'));
  const chosen = apps.find((a) => a.id === ctx.appId) ?? apps[0]!;
  ctx.appId = chosen.id;
  const select = h(
    'select',
    {
      onchange: () => {
        ctx.appId = select.value;
        onChange(apps.find((a) => a.id === select.value)!);
      },
    },
    apps.map((a) => h('option', { value: a.id, selected: a.id === chosen.id }, a.name)),
  );
  queueMicrotask(() => onChange(chosen));
  return field('Application', select);
}

interface Family {
  id: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  revokedReason: string | null;
}

export async function tokensPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const { out, body } = pageFrame();
  const lead = 'Access tokens for the REST APIs, with a refresh token; and the refresh token families in use.';
  if (!(await mountApplicationPage(root, ctx, 'Tokens', lead, { out, body }, (app) => void show(app)))) return;

  async function show(app: Application): Promise<void> {
    const families = h('div', {}, loading('token families'));
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void attempt(out, async () => {
            const t = await api<{ access_token: string; refresh_token: string; expires_in: number; scope: string }>('POST', `/applications/${app.id}/tokens`, {
              scopes: checkedValues(form, 'scopes'),
            });
            mount(
              out,
              h(
                'div',
                { class: 'card success' },
                h('h3', {}, `Token for “${app.name}” (${t.scope}), valid ${Math.round(t.expires_in / 60)} minutes`),
                secretBox('Access token', t.access_token),
                secretBox('Refresh token', t.refresh_token),
              ),
            );
            await listFamilies();
          });
        },
      },
      h('h2', {}, 'Create a token'),
      checkboxes('scopes', 'Scopes', app.scopes),
      h('button', { type: 'submit' }, 'Create token'),
    );
    mount(body, ctx.canChange ? form : null, h('h2', {}, 'Refresh token families'), families);

    async function listFamilies(): Promise<void> {
      try {
        const list = await api<Family[]>('GET', `/applications/${app.id}/token-families`);
        if (!list.length) return mount(families, empty('No refresh tokens issued to this application yet.'));
        mount(
          families,
          h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              {},
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['Family', 'Issued', 'Ends', 'Status', ctx.canChange ? 'Action' : null].map((t) => (t ? h('th', { scope: 'col' }, t) : null)),
                ),
              ),
              h(
                'tbody',
                {},
                list.map((f) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, h('code', {}, f.id.slice(0, 8))),
                    h('td', {}, date(f.createdAt)),
                    h('td', {}, date(f.expiresAt)),
                    h(
                      'td',
                      {},
                      f.revokedAt ? h('span', { class: 'badge off' }, `revoked (${f.revokedReason ?? ''})`) : h('span', { class: 'badge on' }, 'active'),
                    ),
                    ctx.canChange
                      ? h(
                          'td',
                          {},
                          f.revokedAt
                            ? '—'
                            : h(
                                'button',
                                {
                                  type: 'button',
                                  class: 'danger',
                                  onclick: () =>
                                    void attempt(out, async () => {
                                      await api('POST', `/token-families/${f.id}/revoke`);
                                      mount(out, h('p', { class: 'state', role: 'status' }, 'Token family revoked.'));
                                      await listFamilies();
                                    }),
                                },
                                'Revoke',
                              ),
                        )
                      : null,
                  ),
                ),
              ),
            ),
          ),
        );
      } catch (err) {
        mount(families, errorBox(err));
      }
    }
    await listFamilies();
  }
}

interface ApiKeyInfo {
  masked: string;
  apiKey?: string;
  rotatedAt: string | null;
  previousExpiresAt: string | null;
}

export async function apiKeyPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const out = h('div', { 'aria-live': 'polite' });
  const info = h('div', {}, loading('the API key'));
  mount(root, h('h1', {}, 'API key'), h('p', { class: 'lead' }, 'The account’s API key goes in the x-api-key header (required on /consent/v0).'), out, info);
  const show = (k: ApiKeyInfo) =>
    mount(
      info,
      h(
        'div',
        { class: 'card' },
        h('p', {}, 'Current key: ', h('code', { 'data-testid': 'masked-key' }, k.masked)),
        h('p', {}, 'Last rotated: ', date(k.rotatedAt)),
        k.previousExpiresAt ? h('p', {}, 'The previous key works until ', date(k.previousExpiresAt)) : null,
        ctx.isOwner ? rotateForm() : h('p', { class: 'hint' }, 'Only owners can rotate the API key.'),
      ),
    );
  function rotateForm(): HTMLElement {
    const grace = graceSelect();
    return h(
      'form',
      {
        onsubmit: (e: Event) => {
          e.preventDefault();
          if (!confirm('Rotate the API key? Every integration must switch to the new key before the grace period ends.')) return;
          void attempt(out, async () => {
            const k = await api<ApiKeyInfo>('POST', '/api-key/rotate', { graceSeconds: Number(grace.value) });
            mount(out, h('div', { class: 'card success' }, h('h3', {}, 'New API key'), secretBox('API key', k.apiKey!)));
            show(k);
          });
        },
      },
      h('p', { class: 'warning' }, 'Rotating issues a new key. The old key stops working when the grace period ends: update every integration before then.'),
      field('Old key keeps working for', grace),
      h('button', { type: 'submit', class: 'danger' }, 'Rotate API key'),
    );
  }
  try {
    show(await api<ApiKeyInfo>('GET', '/api-key'));
  } catch (err) {
    mount(info, errorBox(err));
  }
}
