/** A tiny hyperscript: elements with attributes, event handlers and children, no framework. */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'value' && 'value' in el) (el as HTMLInputElement).value = String(v);
    else if (k === 'checked' && 'checked' in el) (el as HTMLInputElement).checked = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** Replaces the content of an element. */
export function mount(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export const loading = (what: string) => h('p', { class: 'state loading', role: 'status' }, `Loading ${what}…`);
export const empty = (text: string, ...more: Child[]) => h('div', { class: 'state empty' }, h('p', {}, text), ...more);
export const errorBox = (err: unknown) => h('div', { class: 'state error', role: 'alert' }, h('strong', {}, 'Something went wrong. '), describe(err));

export function describe(err: unknown): string {
  if (err && typeof err === 'object' && 'problem' in err) {
    const p = (err as { problem: { detail?: string; title?: string; errors?: Array<{ field: string; message: string }> } }).problem;
    const fields = (p.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');
    return [p.detail ?? p.title, fields && fields !== p.detail ? fields : ''].filter(Boolean).join(' — ');
  }
  return err instanceof Error ? err.message : String(err);
}

export const date = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
export function secretBox(label: string, value: string, note = 'Copy it now: it is shown only once.'): HTMLElement {
  const id = `secret-${Math.random().toString(36).slice(2)}`;
  const copy = h(
    'button',
    { type: 'button', class: 'secondary', onclick: () => void navigator.clipboard?.writeText(value).then(() => (copy.textContent = 'Copied')) },
    'Copy',
  );
  return h(
    'div',
    { class: 'secret', role: 'region', 'aria-label': label },
    h('label', { for: id }, label),
    h(
      'div',
      { class: 'secret-row' },
      h('input', { id, class: 'mono', readonly: true, value, 'data-secret': label, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
      copy,
    ),
    h('p', { class: 'warning' }, note),
  );
}

/** A labelled form field. */
export function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  const id = input.id || `f-${Math.random().toString(36).slice(2)}`;
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('p', { class: 'hint' }, hint) : null);
}

export function checkboxes(name: string, legend: string, options: string[], checked: string[] = options): HTMLFieldSetElement {
  return h(
    'fieldset',
    { class: 'checks' },
    h('legend', {}, legend),
    options.map((o) => h('label', {}, h('input', { type: 'checkbox', name, value: o, checked: checked.includes(o) }), ' ', o)),
  );
}

export const checkedValues = (form: HTMLElement, name: string) =>
  [...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((i) => i.value);
