import { api } from '../api.js';
import { date, empty, errorBox, field, h, loading, mount, secretBox } from '../dom.js';
import type { PageContext } from '../page.js';
import { mountApplicationPage, pageFrame, type Application } from './credentials.js';

interface Webhook {
  id: number;
  url: string;
  events: string[];
  secret?: string;
  disabled: boolean;
  disabledReason?: string;
  createdAt: string;
}

interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Array<{ at: string; statusCode: number | null; latencyMs: number; error?: string }>;
  createdAt: string;
}

export async function webhooksPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const { out, body, attempt } = pageFrame();
  const lead = 'Each application’s webhooks receive the consent events that application records.';
  if (!(await mountApplicationPage(root, ctx, 'Webhooks', lead, { out, body }, (app) => void show(app)))) return;

  async function show(app: Application): Promise<void> {
    const base = `/applications/${app.id}/webhooks`;
    const list = h('div', {}, loading('webhooks'));
    const url = h('input', { type: 'url', required: true, placeholder: 'https://hooks.example.com/accord', maxlength: 2048 });
    const form = h(
      'form',
      {
        class: 'card',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void attempt(async () => {
            const w = await api<Webhook>('POST', base, { url: url.value, events: ['consent'] });
            mount(
              out,
              h(
                'div',
                { class: 'card success' },
                h('h3', {}, `Webhook ${w.id} registered`),
                secretBox('Signing secret', w.secret!, 'Verify deliveries with this secret (Standard Webhooks). You can read it again on this page.'),
              ),
            );
            url.value = '';
            await refresh();
          });
        },
      },
      h('h2', {}, 'Register a webhook'),
      field('Receiver URL', url, 'It receives consent events as HTTP POSTs signed with Standard Webhooks headers.'),
      h('button', { type: 'submit' }, 'Register webhook'),
    );
    mount(body, h('div', {}, list), ctx.canChange ? form : null);

    async function refresh(): Promise<void> {
      try {
        const hooks = await api<Webhook[]>('GET', base);
        if (!hooks.length) return mount(list, empty('No webhooks for this application yet.'));
        mount(
          list,
          hooks.map((w) => webhookCard(w)),
        );
      } catch (err) {
        mount(list, errorBox(err));
      }
    }

    function webhookCard(w: Webhook): HTMLElement {
      const log = h('div', {});
      const edit = h('input', { type: 'url', value: w.url, 'aria-label': `URL of webhook ${w.id}` });
      const act = (label: string, cls: string, fn: () => Promise<void>) => h('button', { type: 'button', class: cls, onclick: () => void attempt(fn) }, label);
      const card = h(
        'section',
        { class: 'card', 'aria-label': `Webhook ${w.id}`, 'data-webhook': String(w.id) },
        h(
          'h2',
          {},
          `Webhook ${w.id} `,
          w.disabled
            ? h('span', { class: 'badge off' }, `disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`)
            : h('span', { class: 'badge on' }, 'active'),
        ),
        h('p', {}, h('code', {}, w.url), ` · events: ${w.events.join(', ')} · created ${date(w.createdAt)}`),
        ctx.canChange
          ? h(
              'div',
              { class: 'row wrap' },
              edit,
              act('Save URL', 'secondary', async () => {
                await api('PATCH', `${base}/${w.id}`, { url: edit.value });
                mount(out, h('p', { class: 'state', role: 'status' }, `Webhook ${w.id} saved.`));
                await refresh();
              }),
              act('Send test event', 'secondary', async () => {
                await api('POST', `${base}/${w.id}/test`);
                mount(out, h('p', { class: 'state', role: 'status' }, 'Test event queued; it appears in the delivery log.'));
                await deliveries();
              }),
              act('Rotate secret', 'secondary', async () => {
                const r = await api<Webhook>('POST', `${base}/${w.id}/secret/rotate`);
                mount(
                  out,
                  h(
                    'div',
                    { class: 'card success' },
                    secretBox('New signing secret', r.secret!, 'The previous secret keeps signing alongside it for a while.'),
                  ),
                );
              }),
              act('Delete', 'danger', async () => {
                if (!confirm(`Delete webhook ${w.id}?`)) return mount(out);
                await api('DELETE', `${base}/${w.id}`);
                mount(out, h('p', { class: 'state', role: 'status' }, `Webhook ${w.id} deleted.`));
                await refresh();
              }),
            )
          : null,
        h('h3', {}, 'Delivery log ', h('button', { type: 'button', class: 'link', onclick: () => void deliveries() }, 'Refresh')),
        log,
      );
      async function deliveries(): Promise<void> {
        mount(log, loading('deliveries'));
        try {
          const ds = await api<Delivery[]>('GET', `${base}/${w.id}/deliveries?limit=20`);
          if (!ds.length) return mount(log, empty('No deliveries yet. Send a test event, or record a consent with this application.'));
          mount(
            log,
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
                    ['When', 'Event', 'Status', 'Response', ctx.canChange ? 'Action' : null].map((t) => (t ? h('th', { scope: 'col' }, t) : null)),
                  ),
                ),
                h(
                  'tbody',
                  {},
                  ds.map((d) => {
                    const last = d.attempts[d.attempts.length - 1];
                    return h(
                      'tr',
                      { 'data-delivery': d.status },
                      h('td', {}, date(d.createdAt)),
                      h('td', {}, d.eventType),
                      h('td', {}, h('span', { class: `badge ${d.status === 'succeeded' ? 'on' : d.status === 'failed' ? 'off' : ''}` }, d.status)),
                      h(
                        'td',
                        {},
                        last
                          ? `${last.statusCode ?? 'no response'} · ${last.latencyMs} ms${last.error ? ` · ${last.error}` : ''} · ${d.attempts.length} attempt(s)`
                          : 'not yet attempted',
                      ),
                      ctx.canChange
                        ? h(
                            'td',
                            {},
                            act('Redeliver', 'secondary', async () => {
                              await api('POST', `${base}/${w.id}/deliveries/${d.id}/redeliver`);
                              mount(out, h('p', { class: 'state', role: 'status' }, 'Redelivery queued.'));
                              await deliveries();
                            }),
                          )
                        : null,
                    );
                  }),
                ),
              ),
            ),
          );
        } catch (err) {
          mount(log, errorBox(err));
        }
      }
      void deliveries();
      return card;
    }
    await refresh();
  }
}
