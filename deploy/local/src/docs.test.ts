import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { metricsEnv } from '@accord/common';
import * as consent from '@accord/consent';
import * as dataprocessing from '@accord/dataprocessing';
import * as gateway from '@accord/gateway';
import * as oauth from '@accord/oauth';
import * as webhook from '@accord/webhook';

const root = resolve(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const SERVICES = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook'] as const;

/** The Markdown a reader lands on: the README, docs/, and the READMEs of the services, the chart and the clients. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  const readmes = ['services', 'clients'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .map((d) => `${dir}/${d}/README.md`)
      .filter((f) => existsSync(join(root, f))),
  );
  return ['README.md', ...docs, ...readmes, 'charts/accord/README.md'];
}

/** The text outside fenced code blocks, line by line (headings and links in code are not Markdown). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** Inline links and images, and reference definitions, outside code. */
function links(text: string): string[] {
  const out: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
    const ref = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(prose);
    if (ref) out.push(ref[1]!);
  }
  return out;
}

describe('Markdown links', () => {
  const files = markdownFiles();
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => anchorCache.get(file) ?? anchorCache.set(file, anchors(readFileSync(file, 'utf8'))).get(file)!;

  test('every relative link of README.md, docs/ and the READMEs points to a file that exists, and its #anchor to a heading there', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const abs = join(root, file);
      for (const target of links(readFileSync(abs, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        checked++;
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const dest = path ? resolve(dirname(abs), decodeURIComponent(path)) : abs;
        if (!existsSync(dest)) {
          broken.push(`${file}: ${target} (no ${relative(root, dest)})`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(dest).isDirectory() || !dest.endsWith('.md')) broken.push(`${file}: ${target} (an anchor into a file that is not Markdown)`);
        else if (!anchorsOf(dest).has(decodeURIComponent(anchor))) broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(root, dest)})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  test('anchors follow GitHub: code, punctuation and dashes dropped, repeated headings numbered', () => {
    expect([...anchors('# Storage and indexes (declared in `services/consent/src/store/models.ts`)\n## A — b\n## A — b\n```\n# not a heading\n```')]).toEqual([
      'storage-and-indexes-declared-in-servicesconsentsrcstoremodelsts',
      'a--b',
      'a--b-1',
    ]);
  });

  test('the README stays a ten-minute read (at most 250 lines)', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });
});

/** The rows of the configuration table of docs/operating.md: variable → its chart value cell. */
function configTable(): Map<string, string[]> {
  const doc = read('docs/operating.md');
  const table = doc.slice(doc.indexOf('<!-- config-table:start -->'), doc.indexOf('<!-- config-table:end -->'));
  const rows = new Map<string, string[]>();
  for (const m of table.matchAll(/^\| `([A-Z0-9_]+)` \|[^|\n]*\|([^|\n]*)\|/gm)) {
    if (rows.has(m[1]!)) throw new Error(`${m[1]} is documented twice in docs/operating.md`);
    rows.set(
      m[1]!,
      [...m[2]!.matchAll(/`([a-z][A-Za-z]*(?:\.[A-Za-z<>]+)*)`/g)].map((v) => v[1]!),
    );
  }
  return rows;
}

interface Wiring {
  secrets: Record<string, { env: string }>;
  components: Record<string, { portEnv: string }>;
}

interface Settings {
  services: Record<string, Record<string, string>>;
}

/**
 * Every variable the chart sets from a value, with the values that may set it: read from its
 * `accord.wiring` contract, `accord.env` and files/settings.json (a setting read by several
 * services may be documented as `components.default.config.<key>` or as one service's key).
 */
function chartMapping(): Array<[string, string[]]> {
  const helpers = read('charts/accord/templates/_helpers.tpl');
  const start = helpers.indexOf('{{- define "accord.wiring" -}}');
  const body = helpers.slice(helpers.indexOf('\n', start) + 1, helpers.indexOf('{{- end }}', start));
  const wiring = parse(body) as Wiring;
  const settings = JSON.parse(read('charts/accord/files/settings.json')) as Settings;
  const pairs: Array<[string, string[]]> = [
    // set by accord.env from top-level values
    ['ACCORD_BASE_URL', ['baseUrl']],
    ['MONGO_URL', ['mongodb.url']],
    ['NATS_URL', ['nats.url']],
    ['METRICS_PORT', ['metrics.port']],
  ];
  for (const [key, s] of Object.entries(wiring.secrets)) pairs.push([s.env, [`secrets.${key}`]]);
  for (const [name, c] of Object.entries(wiring.components)) pairs.push([c.portEnv, [`components.${name}.port`]]);
  const byVar = new Map<string, string[]>();
  for (const [name, keys] of Object.entries(settings.services)) {
    for (const [key, env] of Object.entries(keys))
      byVar.set(env, [...(byVar.get(env) ?? []), `components.${name}.config.${key}`, `components.default.config.${key}`]);
  }
  for (const [env, paths] of byVar) pairs.push([env, [...new Set(paths)]]);
  return pairs;
}

/** Whether a dotted path names a key of values.yaml (a component's key may come from components.default). */
function valueExists(values: Record<string, unknown>, path: string): boolean {
  const walk = (node: unknown, keys: string[]): boolean =>
    keys.length === 0 || (node !== null && typeof node === 'object' && keys[0]! in node && walk((node as Record<string, unknown>)[keys[0]!], keys.slice(1)));
  const keys = path.split('.');
  return walk(values, keys) || (keys[0] === 'components' && walk(values, ['components', 'default', ...keys.slice(2)]));
}

describe('the configuration table of docs/operating.md', () => {
  const shapes = {
    oauth: oauth.configShape,
    consent: consent.configShape,
    dataprocessing: dataprocessing.configShape,
    webhook: webhook.configShape,
    gateway: gateway.configShape,
  };
  // The metrics variables are read by every main.ts beside its service's schema.
  const readVars = new Set([...Object.values(shapes).flatMap((s) => Object.keys(s)), ...Object.keys(metricsEnv(0))]);
  const table = configTable();

  test('lists every variable a service reads', () => {
    expect([...readVars].filter((v) => !table.has(v)).sort()).toEqual([]);
  });

  test('lists no variable that no service reads', () => {
    expect([...table.keys()].filter((v) => !readVars.has(v)).sort()).toEqual([]);
  });

  test('names, for every variable the chart sets from a value, that value, and no value the chart does not have', () => {
    const values = parse(read('charts/accord/values.yaml')) as Record<string, unknown>;
    const mapping = chartMapping();
    expect(mapping.length).toBeGreaterThan(40);
    // `components.<name>.port`: the same key of every component
    const matches = (documented: string, path: string) => new RegExp(`^${documented.replace(/\./g, '\\.').replace(/<name>/g, '[a-z]+')}$`).test(path);
    const missing = mapping
      .filter(([env, paths]) => !(table.get(env) ?? []).some((d) => paths.some((path) => matches(d, path))))
      .map(([env, paths]) => `${env} ← ${paths.join(' or ')}`);
    expect(missing).toEqual([]);
    const unknown = [...table].flatMap(([env, paths]) => paths.filter((p) => !p.includes('<name>') && !valueExists(values, p)).map((p) => `${env}: ${p}`));
    expect(unknown).toEqual([]);
    // one-to-one: a value of the chart sets one variable, so it is named in one row only
    const rowsOf = new Map<string, string[]>();
    for (const [env, paths] of table) for (const p of paths) rowsOf.set(p, [...(rowsOf.get(p) ?? []), env]);
    expect([...rowsOf].filter(([, envs]) => envs.length > 1)).toEqual([]);
  });
});

describe('the README of each service', () => {
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [`${dir}/${e.name}`] : [],
    );

  test.each(SERVICES)('%s: names every MongoDB collection its models declare', (service) => {
    const readme = read(`services/${service}/README.md`);
    const collections = sources(`services/${service}/src`).flatMap((f) => [...read(f).matchAll(/collection: '([a-z_]+)'/g)].map((m) => m[1]!));
    expect(collections.filter((c) => !readme.includes(`\`${c}\``))).toEqual([]);
  });
});

describe('the rooms of each service (README.md, "Inside a service: the same rooms")', () => {
  /** service → the rooms the README's table gives it, and the ones it says are left out */
  function roomsTable(): Map<string, { rooms: string[]; more: string[] }> {
    const readme = read('README.md');
    const block = readme.slice(readme.indexOf('<!-- rooms-by-service:start -->'), readme.indexOf('<!-- rooms-by-service:end -->'));
    const rows = new Map<string, { rooms: string[]; more: string[] }>();
    for (const m of block.matchAll(/^\| `([a-z]+)` \| ([^|\n]*) \| [^|\n]* \| ([^|\n]*) \|$/gm)) {
      const names = (cell: string) => [...cell.matchAll(/`([a-z.]+\/?)`/g)].map((r) => r[1]!);
      rows.set(m[1]!, { rooms: names(m[2]!), more: names(m[3]!.split(':')[0]!) });
    }
    return rows;
  }
  /** The rooms of the README's first table (those a service may have). */
  const ROOMS = ['app/', 'domain/', 'store/', 'grpc/', 'events/', 'metrics.ts'];
  const BACKENDS = SERVICES.filter((s) => s !== 'gateway');

  test('lists every service with a gRPC server, and nothing else', () => {
    expect([...roomsTable().keys()].sort()).toEqual([...BACKENDS].sort());
  });

  test.each(BACKENDS)('%s: the rooms the table gives it are its src/, and its src/ has no other room', (service) => {
    const row = roomsTable().get(service)!;
    const entries = readdirSync(join(root, 'services', service, 'src'), { withFileTypes: true });
    const tree = entries.filter((e) => e.isDirectory()).map((e) => `${e.name}/`);
    if (entries.some((e) => e.name === 'metrics.ts')) tree.push('metrics.ts');
    expect(row.rooms.filter((r) => !ROOMS.includes(r))).toEqual([]);
    expect(tree.sort()).toEqual([...row.rooms, ...row.more].sort());
  });
});

describe('the authorization table of docs/grpc.md', () => {
  /** The table as the access tables of the services say it, one row per RPC. */
  function rendered(): string {
    const tables: Record<string, Record<string, { scope?: string; services: readonly string[]; public?: true; admin?: true; appFilter?: true }>> = {
      'accord.consent.v1.ConsentService': consent.consentAccess,
      'accord.consent.v1.ConsentActivityService': consent.activityAccess,
      'accord.dataprocessing.v1.DataProcessingService': dataprocessing.dataprocessingAccess,
      'accord.webhook.v1.WebhookService': webhook.webhookAccess,
      'accord.oauth.v1.OAuthService': oauth.oauthAccess,
      'accord.oauth.v1.LimitsService': oauth.limitsAccess,
      'accord.oauth.v1.OAuthConsoleService': oauth.consoleAccess,
    };
    const rows = ['| RPC | Platform callers (scope) | Accord services | Other |', '|---|---|---|---|'];
    for (const [service, table] of Object.entries(tables)) {
      for (const [method, r] of Object.entries(table)) {
        const other = [r.public ? 'anyone (public keys)' : '', r.admin ? 'admin token' : '', r.appFilter ? '`app_id` filters' : ''].filter(Boolean).join(', ');
        rows.push(
          `| \`${service}/${method[0]!.toUpperCase()}${method.slice(1)}\` | ${r.scope ? `\`${r.scope}\`` : '—'} | ${r.services.length ? r.services.join(', ') : '—'} | ${other} |`,
        );
      }
    }
    return rows.join('\n');
  }

  test('is what the services’ access tables declare, row for row (paste the expected block on a change)', () => {
    const doc = read('docs/grpc.md');
    const start = '<!-- authorization-table:start -->\n';
    const block = doc.slice(doc.indexOf(start) + start.length, doc.indexOf('\n<!-- authorization-table:end -->'));
    expect(block).toEqual(rendered());
  });
});
