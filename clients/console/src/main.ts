import { api, setSession, whenSignedOut, type Session } from './api.js';
import { describe, h, mount } from './dom.js';
import type { Page, PageContext } from './page.js';
import { apiKeyPage, applicationsPage, tokensPage } from './pages/credentials.js';
import { dataProcessingPage } from './pages/dataprocessing.js';
import { importsPage } from './pages/imports.js';
import { membersPage } from './pages/members.js';
import { statisticsPage } from './pages/statistics.js';
import { webhooksPage } from './pages/webhooks.js';

const PAGES: Array<{ path: string; title: string; page: Page }> = [
  { path: 'applications', title: 'Applications', page: applicationsPage },
  { path: 'tokens', title: 'Tokens', page: tokensPage },
  { path: 'api-key', title: 'API key', page: apiKeyPage },
  { path: 'webhooks', title: 'Webhooks', page: webhooksPage },
  { path: 'statistics', title: 'Statistics', page: statisticsPage },
  { path: 'imports', title: 'Imports', page: importsPage },
  { path: 'dataprocessing', title: 'Data processing', page: dataProcessingPage },
  { path: 'members', title: 'Members', page: membersPage },
];

const app = document.getElementById('app')!;
let ctx: PageContext | null = null;

function signInPage(message?: string): void {
  document.title = 'Sign in · Accord console';
  const sso = h('div', {});
  mount(
    app,
    h(
      'main',
      { id: 'main', class: 'signin' },
      h('h1', {}, 'Accord console'),
      message ? h('p', { class: 'state error', role: 'alert' }, message) : null,
      h('p', {}, 'Sign in with a one-time console link. An administrator prints one with:'),
      h('pre', {}, 'npm run -s admin -- console-link --account <name>'),
      h('p', { class: 'hint' }, 'Links are valid for 15 minutes and work once. Open the printed URL in this browser.'),
      sso,
    ),
  );
  // Single sign-on, when the installation has an identity provider configured.
  void api<{ enabled: boolean }>('GET', '/oidc').then(
    (o) => o.enabled && mount(sso, h('p', {}, h('a', { class: 'button', href: '/console/api/oidc/login' }, 'Sign in with single sign-on'))),
    () => undefined,
  );
}

const SIGNIN_ERRORS: Record<string, string> = {
  expired: 'The single sign-on attempt expired; try again.',
  refused: 'The identity provider did not confirm the sign-in; try again.',
  'not-a-member': 'You are not a member of any account here. Ask an owner for access.',
};

async function redeem(link: string): Promise<void> {
  // Forget the token at once: it must not stay in the address bar or the history.
  history.replaceState(null, '', '/console/#/applications');
  mount(app, h('p', { class: 'state loading', role: 'status' }, 'Signing in…'));
  try {
    start(await api<Session>('POST', '/session', { link }));
  } catch (err) {
    signInPage(`The sign-in link did not work: ${describe(err)}`);
  }
}

function start(session: Session): void {
  setSession(session);
  const appId = ctx?.appId;
  ctx = {
    session,
    canChange: session.member.role !== 'viewer',
    isOwner: session.member.role === 'owner',
    appId,
    resync: async () => start(await api<Session>('GET', '/session')),
  };
  render();
}

async function signOut(everywhere: boolean): Promise<void> {
  try {
    await (everywhere ? api('POST', '/session/revoke-all') : api('DELETE', '/session'));
  } finally {
    setSession(null);
    ctx = null;
    signInPage(everywhere ? 'Signed out on every device.' : 'Signed out.');
  }
}

function render(): void {
  if (!ctx) return;
  const current = PAGES.find((p) => location.hash === `#/${p.path}`) ?? PAGES[0]!;
  document.title = `${current.title} · Accord console`;
  const main = h('main', { id: 'main', tabindex: '-1' });
  const s = ctx.session;
  mount(
    app,
    h(
      'header',
      { class: 'top' },
      h('div', { class: 'brand' }, h('strong', {}, 'Accord'), ' console · ', h('span', { 'data-testid': 'account' }, s.account.name)),
      h(
        'nav',
        { 'aria-label': 'Console pages' },
        h(
          'ul',
          {},
          PAGES.map((p) => h('li', {}, h('a', { href: `#/${p.path}`, 'aria-current': p === current ? 'page' : null }, p.title))),
        ),
      ),
      h(
        'div',
        { class: 'who' },
        h('span', {}, `${s.member.name} (${s.member.role})`),
        h('button', { type: 'button', class: 'secondary', onclick: () => void signOut(false) }, 'Sign out'),
        h('button', { type: 'button', class: 'secondary', onclick: () => void signOut(true) }, 'Sign out everywhere'),
      ),
    ),
    ctx.canChange ? null : h('p', { class: 'banner', role: 'note' }, 'You have the viewer role: you can look at everything but change nothing.'),
    main,
  );
  void current.page(main, ctx);
}

whenSignedOut(() => {
  ctx = null;
  signInPage('Your session has ended. Sign in again.');
});
window.addEventListener('hashchange', () => {
  const link = /^#link=(.+)$/.exec(location.hash);
  if (link) return void redeem(decodeURIComponent(link[1]!));
  render();
  // A keyboard or screen-reader user lands on the new page, not back at the top of the header.
  document.getElementById('main')?.focus();
});
// The skip link moves focus to the page; followed as a link, its #main would be a route.
document.querySelector('a.skip')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main')?.focus();
});

async function boot(): Promise<void> {
  const link = /^#link=(.+)$/.exec(location.hash);
  if (link) return redeem(decodeURIComponent(link[1]!));
  const failed = /^#signin-error=([\w-]+)$/.exec(location.hash);
  if (failed) {
    history.replaceState(null, '', '/console/');
    return signInPage(SIGNIN_ERRORS[failed[1]!] ?? 'Sign-in failed.');
  }
  try {
    start(await api<Session>('GET', '/session'));
  } catch {
    signInPage();
  }
}
void boot();
