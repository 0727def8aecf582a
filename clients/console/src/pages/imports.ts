import { api, upload, type Sent } from '../api.js';
import { describe, errorBox, field, h, mount } from '../dom.js';
import type { PageContext } from '../page.js';
import { mountApplicationPage, pageFrame, type Application } from './credentials.js';

/** An import as GET /consent/v0/imports/{id} answers it (docs/consent.md, Import). */
interface Import {
  id: string;
  state: 'running' | 'done' | 'failed';
  read: number;
  stored: number;
  duplicates: number;
  refused: number;
  errors: Array<{ line: number; field: string; detail: string }>;
  failure?: string;
}

/** The service keeps the first 1,000 errors of an import. */
const KEPT_ERRORS = 1_000;
const IMPORT_ID = /^[0-9a-f]{32}$/;
/** Reading a running import again: every second at first, then less often (it may run for a long time). */
const POLL_MS = { first: 1_000, max: 5_000 };

const COUNTS = [
  ['read', 'Lines read'],
  ['stored', 'Stored'],
  ['duplicates', 'Duplicates'],
  ['refused', 'Refused'],
] as const;

const STATES: Record<Import['state'], string> = { running: 'running', done: 'done', failed: 'failed' };

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** The body's media type, from the file's name (browsers often know no type for .ndjson). */
export const mediaTypeOf = (name: string): string => (/\.csv$/i.test(name) ? 'text/csv' : 'application/x-ndjson');

const summary = (j: Import) => `${j.read} read, ${j.stored} stored, ${j.duplicates} ${j.duplicates === 1 ? 'duplicate' : 'duplicates'}, ${j.refused} refused`;

/**
 * One import's progress: a progress bar (bytes sent while the file uploads, full when the import
 * is done), its state as a status line (announced at each change of phase, not at each percent),
 * the counts and the errors by line and field.
 */
function progressView(title: string) {
  const uid = Math.random().toString(36).slice(2);
  const heading = h('h2', { id: `import-h-${uid}` }, title);
  const bar = h('progress', { id: `import-bar-${uid}`, max: 100, 'aria-labelledby': `import-h-${uid}`, 'data-testid': 'import-progress' });
  const status = h('p', { role: 'status', class: 'import-status', 'data-testid': 'import-status' });
  // The bytes sent, visible but not announced (the bar's value text says it to whoever asks).
  const sentLine = h('p', { class: 'hint', 'data-testid': 'import-sent' });
  const counts = h('div', {});
  const errors = h('div', {});
  const el = h('section', { class: 'card import', 'aria-labelledby': `import-h-${uid}` }, heading, bar, sentLine, status, counts, errors);

  const setBar = (percent: number | null, text: string) => {
    if (percent === null) {
      bar.removeAttribute('value'); // indeterminate
    } else bar.value = percent;
    bar.setAttribute('aria-valuetext', text);
  };
  const say = (text: string, state?: Import['state'] | 'sending') => {
    status.textContent = text;
    if (state) el.dataset.state = state;
  };

  return {
    el,
    sending(file: File) {
      setBar(0, `${formatBytes(0)} of ${formatBytes(file.size)} sent`);
      say(`Sending ${file.name} (${formatBytes(file.size)})…`, 'sending');
    },
    sent(s: Sent) {
      const percent = s.total ? Math.floor((100 * s.loaded) / s.total) : 0;
      // The last per cent waits for the answer: the lines are stored as they arrive, the last ones after the last byte.
      setBar(Math.min(percent, 99), `${formatBytes(s.loaded)} of ${formatBytes(s.total)} sent`);
      sentLine.textContent = `${formatBytes(s.loaded)} of ${formatBytes(s.total)} sent (${percent} %)`;
    },
    bodySent() {
      setBar(99, 'The file is sent; storing the last lines');
      say('The file is sent; storing the last lines…');
    },
    show(j: Import) {
      el.dataset.importId = j.id;
      if (j.state === 'running') {
        setBar(null, `Running: ${summary(j)}`);
        say(`Running: ${summary(j)} so far.`, 'running');
      } else if (j.state === 'done') {
        setBar(100, `Done: ${summary(j)}`);
        say(`Done: ${summary(j)}.`, 'done');
      } else {
        setBar(bar.value || 0, `Failed: ${summary(j)}`);
        say(
          `Failed: ${j.failure ?? 'the import stopped'}. Lines stored so far stay; import the same file again to resume (they count as duplicates).`,
          'failed',
        );
      }
      mount(
        counts,
        h(
          'dl',
          { class: 'totals' },
          h('div', { 'data-count': 'state' }, h('dt', {}, 'State'), h('dd', {}, h('span', { class: `badge import-${j.state}` }, STATES[j.state]))),
          COUNTS.map(([key, label]) => h('div', { 'data-count': key }, h('dt', {}, label), h('dd', {}, String(j[key])))),
        ),
        h('p', { class: 'hint' }, 'Import id ', h('code', { 'data-testid': 'import-id' }, j.id)),
      );
      mount(errors, j.errors.length ? errorTable(j) : null);
    },
    failed(err: unknown) {
      setBar(bar.value || 0, 'Not imported');
      say('Not imported.', 'failed');
      mount(counts, errorBox(err));
    },
  };
}

function errorTable(j: Import): HTMLElement {
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'import-errors' },
        h('caption', {}, `Lines refused${j.errors.length >= KEPT_ERRORS ? ' (the first 1,000)' : ''}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Line', 'Field', 'Detail'].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          {},
          j.errors.map((e) =>
            h(
              'tr',
              { 'data-line': e.line },
              h('td', { class: 'num' }, e.line),
              h('td', {}, e.field ? h('code', {}, e.field) : h('span', { class: 'muted' }, 'the whole line')),
              h('td', {}, e.detail),
            ),
          ),
        ),
      ),
    ),
    j.refused > j.errors.length
      ? h('p', { class: 'hint' }, `${j.refused - j.errors.length} more refused lines are not listed: only the first 1,000 are kept.`)
      : null,
  );
}

/** Reads the import until it is no longer running (or its view has left the page); a failed read is shown in the view. */
async function follow(app: Application, job: Import, view: ReturnType<typeof progressView>): Promise<void> {
  view.show(job);
  let wait = POLL_MS.first;
  try {
    while (job.state === 'running' && view.el.isConnected) {
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(POLL_MS.max, wait * 1.5);
      job = await api<Import>('GET', `/applications/${app.id}/imports/${job.id}`);
      view.show(job);
    }
  } catch (err) {
    view.el.append(errorBox(err));
  }
}

export async function importsPage(root: HTMLElement, ctx: PageContext): Promise<void> {
  const { out, body } = pageFrame();
  const lead =
    "Bring in the consent history of another system, or of another Accord, with the events' original times. " +
    'Each line is stored once: importing the same file again stores nothing twice.';
  if (!(await mountApplicationPage(root, ctx, 'Imports', lead, { out, body }, (app) => show(app)))) return;

  function show(app: Application): void {
    const results = h('div', {});
    mount(
      body,
      ctx.canChange ? uploadForm(app, results) : h('p', { class: 'warning', role: 'note' }, 'Importing needs the developer role.'),
      lookupForm(app, results),
      results,
    );
  }

  function uploadForm(app: Application, results: HTMLElement): HTMLElement {
    const file = h('input', {
      type: 'file',
      name: 'file',
      required: true,
      accept: '.ndjson,.jsonl,.csv,application/x-ndjson,text/csv',
      'aria-describedby': 'import-file-hint',
    });
    const submit = h('button', { type: 'submit' }, 'Import');
    const form = h(
      'form',
      {
        class: 'card',
        'aria-labelledby': 'import-form-h',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const chosen = file.files?.[0];
          if (chosen) void run(chosen);
        },
      },
      h('h2', { id: 'import-form-h' }, `Import into “${app.name}”`),
      field('File', file),
      h(
        'p',
        { class: 'hint', id: 'import-file-hint' },
        'NDJSON (.ndjson, .jsonl): one event per line in the form of the consent export, with createdAt and an optional externalId. ',
        'CSV (.csv): a header row naming the columns (subject, issuer, target, action, createdAt required), then one event per line.',
      ),
      submit,
    );

    async function run(chosen: File): Promise<void> {
      const view = progressView(`Import of ${chosen.name}`);
      results.prepend(view.el);
      submit.disabled = true;
      // Leaving the page closes the connection: the import stops there (and resumes from the same file).
      const warn = (e: BeforeUnloadEvent) => e.preventDefault();
      window.addEventListener('beforeunload', warn);
      view.sending(chosen);
      let job: Import;
      try {
        job = await upload<Import>(`/applications/${app.id}/imports`, chosen, mediaTypeOf(chosen.name), {
          onSent: (s) => view.sent(s),
          onBodySent: () => view.bodySent(),
        });
      } catch (err) {
        return view.failed(err);
      } finally {
        window.removeEventListener('beforeunload', warn);
        submit.disabled = false;
      }
      form.reset();
      // The answer comes once the body is read (the import done, or failed); read where it stands from then on.
      await follow(app, job, view);
    }
    return form;
  }

  function lookupForm(app: Application, results: HTMLElement): HTMLElement {
    const id = h('input', {
      type: 'text',
      class: 'mono',
      name: 'id',
      required: true,
      pattern: IMPORT_ID.source.slice(1, -1),
      autocomplete: 'off',
      spellcheck: 'false',
    });
    const note = h('div', { 'aria-live': 'polite' });
    return h(
      'form',
      {
        class: 'card',
        'aria-labelledby': 'import-follow-h',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const value = id.value.trim();
          mount(note);
          void api<Import>('GET', `/applications/${app.id}/imports/${encodeURIComponent(value)}`).then(
            (job) => {
              const view = progressView(`Import ${value}`);
              results.prepend(view.el);
              return follow(app, job, view);
            },
            (err) => mount(note, h('p', { class: 'state error', role: 'alert' }, describe(err))),
          );
        },
      },
      h('h2', { id: 'import-follow-h' }, 'Follow an import'),
      field('Import id', id, 'The id a POST /consent/v0/imports answered, or one shown below.'),
      h('button', { type: 'submit', class: 'secondary' }, 'Show import'),
      note,
    );
  }
}
