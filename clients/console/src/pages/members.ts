import { api } from '../api.js';
import { date, errorBox, field, h, loading, mount, secretBox } from '../dom.js';
import type { PageContext } from '../page.js';

interface Member {
  id: string;
  name: string;
  role: 'owner' | 'developer' | 'viewer';
  createdAt: string | null;
}

const ROLES = [
  ['owner', 'owner — everything, including the API key and members'],
  ['developer', 'developer — applications, tokens, webhooks, data processing'],
  ['viewer', 'viewer — reads only'],
] as const;

/** A role list: with what each role may in the invite form, the bare names in the table. */
const roleSelect = (selected: string, attrs: Record<string, string> = {}, explained = false) =>
  h(
    'select',
    attrs,
    ROLES.map(([v, l]) => h('option', { value: v, selected: v === selected }, explained ? l : v)),
  );

/**
 * The account's members and their roles. Owners invite (a one-time sign-in link to hand over),
 * change roles and remove members; the console API keeps at least one owner (409 otherwise).
 */
export async function membersPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const out = h('div', { 'aria-live': 'polite' });
  const list = h('div', {}, loading('members'));
  const owner = ctx.isOwner;

  const attempt = async (fn: () => Promise<void>) => {
    mount(out, h('p', { class: 'state loading', role: 'status' }, 'Working…'));
    try {
      await fn();
    } catch (err) {
      mount(out, errorBox(err));
    }
  };

  const name = h('input', { name: 'name', required: true, maxlength: 200, autocomplete: 'off' });
  const role = roleSelect('viewer', {}, true);
  const invite = h(
    'form',
    {
      class: 'card',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void attempt(async () => {
          const r = await api<{ member: Member; link: string; expiresAt: string }>('POST', '/members', { name: name.value, role: role.value });
          mount(
            out,
            h(
              'div',
              { class: 'card success' },
              h('h3', {}, `${r.member.name} is invited as ${r.member.role}`),
              secretBox('Sign-in link', r.link, `Send it to ${r.member.name} privately. It works once, until ${date(r.expiresAt)}; it is shown only now.`),
            ),
          );
          name.value = '';
          await refresh();
        });
      },
    },
    h('h2', {}, 'Invite a member'),
    field('Member name', name, 'A name for the person, unique in this account.'),
    field('Role', role),
    h('button', { type: 'submit' }, 'Create sign-in link'),
  );

  mount(
    root,
    h('h1', {}, 'Members'),
    h('p', { class: 'lead' }, 'Who can use this console for the account, and with which role.'),
    out,
    list,
    owner ? invite : h('p', { class: 'hint' }, 'Only owners can invite members, change roles or remove members.'),
  );

  function actions(m: Member): HTMLElement {
    const select = roleSelect(m.role, { 'aria-label': `Role of ${m.name}` });
    return h(
      'div',
      { class: 'row' },
      select,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'aria-label': `Save role of ${m.name}`,
          onclick: () =>
            void attempt(async () => {
              const updated = await api<Member>('PATCH', `/members/${m.id}`, { role: select.value });
              mount(out, h('p', { class: 'state', role: 'status' }, `${updated.name} is now ${updated.role}.`));
              if (m.id === ctx.session.member.id) return ctx.resync(); // my own role: the whole console changes
              await refresh();
            }),
        },
        'Save role',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'aria-label': `Remove ${m.name}`,
          onclick: () => {
            if (!confirm(`Remove ${m.name} from the account? Their sessions end at once.`)) return;
            void attempt(async () => {
              await api('DELETE', `/members/${m.id}`);
              mount(out, h('p', { class: 'state', role: 'status' }, `${m.name} removed.`));
              if (m.id === ctx.session.member.id) return ctx.resync();
              await refresh();
            });
          },
        },
        'Remove',
      ),
    );
  }

  async function refresh(): Promise<void> {
    try {
      const members = await api<Member[]>('GET', '/members');
      mount(
        list,
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            {},
            h('caption', { class: 'sr-only' }, 'Members'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Name', 'Role', 'Member since', owner ? 'Change' : null].map((t) => (t ? h('th', { scope: 'col' }, t) : null)),
              ),
            ),
            h(
              'tbody',
              {},
              members.map((m) =>
                h(
                  'tr',
                  { 'data-member': m.name },
                  h('th', { scope: 'row' }, m.name, m.id === ctx.session.member.id ? h('span', { class: 'hint' }, ' (you)') : null),
                  h('td', {}, h('span', { class: 'badge', 'data-role': m.role }, m.role)),
                  h('td', {}, date(m.createdAt)),
                  owner ? h('td', { class: 'actions' }, actions(m)) : null,
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
  await refresh();
}
