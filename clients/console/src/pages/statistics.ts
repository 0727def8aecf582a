import { api } from '../api.js';
import { empty, errorBox, field, h, loading, mount } from '../dom.js';
import type { PageContext } from '../page.js';
import { applicationPicker, type Application } from './credentials.js';

interface Day {
  day: string;
  accepted: number;
  declined: number;
  noAction: number;
}
interface Target {
  target: string;
  events: number;
  currentAccepted: number;
  currentDeclined: number;
  currentNoAction: number;
}
interface Stats {
  from: string;
  to: string;
  days: Day[];
  truncated: boolean;
  totals: { events: number; accepted: number; declined: number; noAction: number; distinctSubjects: number };
  targets: Target[];
  topTargets: Target[];
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>, ...children: Array<SVGElement | string>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

const SERIES = [
  { key: 'accepted', label: 'accepted', cls: 'c-acc' },
  { key: 'declined', label: 'declined', cls: 'c-dec' },
  { key: 'noAction', label: 'no action', cls: 'c-none' },
] as const;

const legend = () =>
  h(
    'ul',
    { class: 'legend' },
    SERIES.map((s) => h('li', {}, h('span', { class: `swatch ${s.cls}` }), s.label)),
  );

/** Stacked bars per day, with a title per bar (hover) and the numbers as a table for screen readers and keyboards. */
function dailyChart(days: Day[]): HTMLElement {
  const W = 720;
  const H = 220;
  const pad = { l: 40, b: 24, t: 8 };
  const max = Math.max(1, ...days.map((d) => d.accepted + d.declined + d.noAction));
  const bw = (W - pad.l) / days.length;
  const y = (v: number) => ((H - pad.b - pad.t) * v) / max;
  const bars = days.map((d, i) => {
    let base = H - pad.b;
    const x = pad.l + i * bw + bw * 0.1;
    const g = svg('g', {}, svg('title', {}, `${d.day}: ${d.accepted} accepted, ${d.declined} declined, ${d.noAction} no action`));
    for (const s of SERIES) {
      const hgt = y(d[s.key]);
      if (!hgt) continue;
      base -= hgt;
      g.append(svg('rect', { x, y: base, width: Math.max(1, bw * 0.8), height: hgt, class: s.cls }));
    }
    return g;
  });
  const labelEvery = Math.ceil(days.length / 8);
  const labels = days
    .filter((_, i) => i % labelEvery === 0)
    .map((d) => svg('text', { x: pad.l + days.indexOf(d) * bw, y: H - 6, class: 'axis' }, d.day.slice(5)));
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': `Consent events per day from ${days[0]?.day} to ${days[days.length - 1]?.day}, by action`,
      class: 'chart',
    },
    svg('line', { x1: pad.l, x2: W, y1: H - pad.b, y2: H - pad.b, class: 'grid' }),
    svg('text', { x: 0, y: pad.t + 10, class: 'axis' }, String(max)),
    svg('text', { x: 0, y: H - pad.b, class: 'axis' }, '0'),
    ...bars,
    ...labels,
  );
  const wrap = h('figure', { class: 'card', 'data-chart': 'daily' }, h('figcaption', {}, h('h2', {}, 'Events per day')), legend());
  wrap.append(chart);
  wrap.append(
    h(
      'details',
      {},
      h('summary', {}, 'Show as a table'),
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
              ['Day', 'Accepted', 'Declined', 'No action'].map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            {},
            days.map((d) => h('tr', {}, h('td', {}, d.day), h('td', {}, d.accepted), h('td', {}, d.declined), h('td', {}, d.noAction))),
          ),
        ),
      ),
    ),
  );
  return wrap;
}

/** Horizontal stacked bars: the current states per target (the most active targets first). */
function targetChart(title: string, targets: Target[]): HTMLElement {
  const max = Math.max(1, ...targets.map((t) => t.currentAccepted + t.currentDeclined + t.currentNoAction));
  return h(
    'figure',
    { class: 'card', 'data-chart': 'targets' },
    h('figcaption', {}, h('h2', {}, title)),
    legend(),
    h(
      'ul',
      { class: 'hbars' },
      targets.map((t) =>
        h(
          'li',
          {},
          h('span', { class: 'hbar-label', title: t.target }, t.target),
          h(
            'span',
            {
              class: 'hbar',
              role: 'img',
              'aria-label': `${t.target}: ${t.currentAccepted} accepted, ${t.currentDeclined} declined, ${t.currentNoAction} no action now; ${t.events} events`,
            },
            SERIES.map((s) => {
              const v = s.key === 'accepted' ? t.currentAccepted : s.key === 'declined' ? t.currentDeclined : t.currentNoAction;
              return v ? h('span', { class: `seg ${s.cls}`, style: `width:${(100 * v) / max}%` }) : null;
            }),
          ),
          h('span', { class: 'hbar-num' }, `${t.currentAccepted} / ${t.currentDeclined}`),
        ),
      ),
    ),
  );
}

export async function statisticsPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  mount(root, h('h1', {}, 'Statistics'), loading('applications'));
  const body = h('div', {});
  const today = new Date().toISOString().slice(0, 10);
  const from = h('input', { type: 'date', value: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10), max: today });
  const to = h('input', { type: 'date', value: today, max: today });
  let app: Application | undefined;
  let picker: HTMLElement;
  try {
    picker = await applicationPicker(ctx, (a) => {
      app = a;
      void show();
    });
  } catch (err) {
    return mount(root, h('h1', {}, 'Statistics'), errorBox(err));
  }
  const csv = h('a', { class: 'button secondary', href: '#', download: '' }, 'Download CSV');
  const form = h(
    'form',
    {
      class: 'row wrap range',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void show();
      },
    },
    field('From', from),
    field('To', to),
    h('button', { type: 'submit' }, 'Show'),
    csv,
  );
  mount(
    root,
    h('h1', {}, 'Statistics'),
    h('p', { class: 'lead' }, 'Consent events recorded by an application, and where its targets stand now.'),
    picker,
    form,
    body,
  );

  async function show(): Promise<void> {
    if (!app) return;
    const q = `from=${from.value}&to=${to.value}`;
    csv.setAttribute('href', `/console/api/applications/${app.id}/statistics.csv?${q}`);
    mount(body, loading('statistics'));
    try {
      const s = await api<Stats>('GET', `/applications/${app.id}/statistics?${q}`);
      const inRange = s.days.reduce((n, d) => n + d.accepted + d.declined + d.noAction, 0);
      mount(
        body,
        h(
          'dl',
          { class: 'totals' },
          [
            ['Events in range', inRange],
            ['Events in all', s.totals.events],
            ['Subjects', s.totals.distinctSubjects],
            ['Targets', s.targets.length],
          ].map(([k, v]) => h('div', {}, h('dt', {}, String(k)), h('dd', {}, String(v)))),
        ),
        s.truncated
          ? h('p', { class: 'warning' }, 'This range holds more events than one chart counts; the counts are partial. Choose a shorter range.')
          : null,
        inRange ? dailyChart(s.days) : empty(`No consent events between ${s.from} and ${s.to}.`),
        s.targets.length
          ? targetChart('Top targets: current accepted / declined', s.topTargets)
          : empty('No targets yet: record consents with this application to see them here.'),
      );
    } catch (err) {
      mount(body, errorBox(err));
    }
  }
}
