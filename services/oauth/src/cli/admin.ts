/**
 * `npm run -s admin -- <command>`: administration of accounts and applications through the
 * oauth service's admin RPCs. Finds the service through ACCORD_OAUTH_ADDR / ACCORD_ADMIN_TOKEN,
 * else the state file written by `npm start`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Metadata, status } from '@grpc/grpc-js';
import { createClient, grpcTls, isServiceError, type GrpcTls } from '@accord/common';
import { limitsv1, oauthconsolev1, oauthv1 } from '@accord/proto';
import { runExport, type ConsentTarget, type ExportArgs } from './export';

export interface AdminIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

const USAGE = `Usage: npm run -s admin -- <command> [options]

Commands:
  bootstrap --account <name> --app <name> [--scopes consent,dataprocessing,webhooks] [--json]
      Creates the account when the name is new (else reuses it), then a new application in it.
      Prints the account id, API key, application id, client id, client secret and scopes.
      The client secret is shown only here; keep it.
  accounts [--json]                       Lists accounts.
  apps --account <account id> [--json]    Lists the applications of an account.
  rotate-secret --client <client id> [--json]
      Issues a new client secret; the old one and the client's refresh tokens stop working.
  rotate-api-key --account <account id> [--json]
      Issues a new API key for the account; the old one stops working.
  limits --account <account id> [--rate <req/s>] [--burst <n>] [--app-rate <req/s>] [--app-burst <n>]
         [--events-per-request <n>] [--events-per-day <n>] [--clear] [--json]
      Shows the account's limit overrides, or sets the given ones (0 = no limit for that
      account; unset fields follow the gateway's defaults); --clear removes every override.
      Gateways apply a change within ACCORD_LIMIT_CACHE_MS (30 s by default).
  set-origins --app <app id> --origins <origin,origin,...> [--json]
      Replaces the browser origins (https://shop.example) allowed to call the API with the
      application's consent sessions (CORS). --origins '' allows none.
  console-link --account <name> [--member <name>] [--role owner|developer|viewer] [--json]
      Prints a one-time sign-in URL for the account's web application (the console), valid
      for 15 minutes and for one use. The member (default "owner") is created with the role
      (default owner) when new. The URL's base is ACCORD_BASE_URL, else the gateway of \`npm start\`.

  export --account <account id> [--since <time>] [--until <time>] [--app <app id>] [--target <t>]
         [--subject <s>] [--links] [--output <file>] [--gzip] [--cursor <event id> | --resume] [--quiet]
      Writes the account's consent events as NDJSON, oldest first (the lines of
      GET /consent/v0/consents/export), to --output or stdout, gzip-compressed with --gzip, with a
      progress bar on stderr (from the same estimate as X-Total-Count; --quiet hides it). An
      interrupted export prints the cursor to resume with; --resume continues an uncompressed
      --output file after its last complete line. --links adds the account's link events (linked
      identities) as lines of their own among the events (the export's links=true; not with
      --target), so that an import into another Accord rebuilds the links too. Talks to the consent service:
      ACCORD_CONSENT_ADDR with ACCORD_ADMIN_SERVICE_KEY (the admin service identity's key), else the
      state file of \`npm start\`.

Connection: ACCORD_OAUTH_ADDR (host:port) and ACCORD_ADMIN_TOKEN, else the state file of
\`npm start\` (ACCORD_STATE_FILE, default .accord/local/state.json).
`;

class CliError extends Error {}

interface Target {
  addr: string;
  adminToken: string;
  /** The gateway's public URL, when known (for console links). */
  baseUrl?: string;
}

/** Where the oauth service is and the admin token: the environment first, then the state file. */
export function resolveTarget(env: NodeJS.ProcessEnv, cwd: string): Target {
  let addr = env.ACCORD_OAUTH_ADDR || undefined;
  let adminToken = env.ACCORD_ADMIN_TOKEN || undefined;
  let baseUrl = env.ACCORD_BASE_URL || undefined;
  if (!addr || !adminToken) {
    const candidates = env.ACCORD_STATE_FILE
      ? [isAbsolute(env.ACCORD_STATE_FILE) ? env.ACCORD_STATE_FILE : resolve(cwd, env.ACCORD_STATE_FILE)]
      : // cwd first (npm run runs at the repository root), then the repository this CLI is built in.
        [...new Set([resolve(cwd, '.accord/local/state.json'), resolve(__dirname, '../../../../.accord/local/state.json')])];
    const file = candidates.find((f) => existsSync(f));
    if (!file) {
      throw new CliError(
        `cannot find the oauth service: no state file at ${candidates[0]} (is \`npm start\` running?); or set ACCORD_OAUTH_ADDR and ACCORD_ADMIN_TOKEN`,
      );
    }
    let state: { oauthAddr?: unknown; adminToken?: unknown; gatewayUrl?: unknown };
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as typeof state;
    } catch (err) {
      throw new CliError(`cannot read the state file ${file}: ${(err as Error).message}`);
    }
    addr ??= typeof state.oauthAddr === 'string' ? state.oauthAddr : undefined;
    adminToken ??= typeof state.adminToken === 'string' ? state.adminToken : undefined;
    baseUrl ??= typeof state.gatewayUrl === 'string' ? state.gatewayUrl : undefined;
    if (!addr) throw new CliError(`the state file ${file} has no oauthAddr; set ACCORD_OAUTH_ADDR`);
    if (!adminToken) throw new CliError(`the state file ${file} has no adminToken; set ACCORD_ADMIN_TOKEN`);
  }
  return { addr, adminToken, baseUrl };
}

/** The admin identity's TLS (ACCORD_ADMIN_GRPC_TLS_CERT_FILE, _KEY_FILE, with ACCORD_GRPC_TLS_CA_FILE), or undefined: plaintext. */
function adminTls(env: NodeJS.ProcessEnv): GrpcTls | undefined {
  if (!env.ACCORD_ADMIN_GRPC_TLS_CERT_FILE && !env.ACCORD_ADMIN_GRPC_TLS_KEY_FILE) return undefined;
  return grpcTls({
    ACCORD_GRPC_TLS_CA_FILE: env.ACCORD_GRPC_TLS_CA_FILE,
    ACCORD_GRPC_TLS_CERT_FILE: env.ACCORD_ADMIN_GRPC_TLS_CERT_FILE,
    ACCORD_GRPC_TLS_KEY_FILE: env.ACCORD_ADMIN_GRPC_TLS_KEY_FILE,
  });
}

/**
 * The consent service for `export`, and the operator's service identity key (`admin`) that the
 * consent service admits to exports: ACCORD_CONSENT_ADDR and ACCORD_ADMIN_SERVICE_KEY, else the state
 * file of `npm start`.
 */
export function resolveConsentTarget(env: NodeJS.ProcessEnv, cwd: string): ConsentTarget {
  if (env.ACCORD_CONSENT_ADDR) {
    if (!env.ACCORD_ADMIN_SERVICE_KEY)
      throw new CliError('set ACCORD_ADMIN_SERVICE_KEY (the private key of the admin service identity) with ACCORD_CONSENT_ADDR');
    // with mutual TLS between the services, the admin identity's own certificate (spiffe://accord/admin)
    const tls =
      env.ACCORD_ADMIN_GRPC_TLS_CERT_FILE || env.ACCORD_ADMIN_GRPC_TLS_KEY_FILE
        ? { ca: env.ACCORD_GRPC_TLS_CA_FILE ?? '', cert: env.ACCORD_ADMIN_GRPC_TLS_CERT_FILE ?? '', key: env.ACCORD_ADMIN_GRPC_TLS_KEY_FILE ?? '' }
        : undefined;
    return { addr: env.ACCORD_CONSENT_ADDR, serviceKey: env.ACCORD_ADMIN_SERVICE_KEY, tls };
  }
  const candidates = env.ACCORD_STATE_FILE
    ? [isAbsolute(env.ACCORD_STATE_FILE) ? env.ACCORD_STATE_FILE : resolve(cwd, env.ACCORD_STATE_FILE)]
    : [...new Set([resolve(cwd, '.accord/local/state.json'), resolve(__dirname, '../../../../.accord/local/state.json')])];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new CliError(`cannot find the consent service: no state file at ${candidates[0]} (is \`npm start\` running?); or set ACCORD_CONSENT_ADDR`);
  const state = JSON.parse(readFileSync(file, 'utf8')) as { consentAddr?: unknown; adminServiceKey?: unknown };
  if (typeof state.consentAddr !== 'string') throw new CliError(`the state file ${file} has no consentAddr; set ACCORD_CONSENT_ADDR`);
  if (typeof state.adminServiceKey !== 'string')
    throw new CliError(`the state file ${file} has no adminServiceKey (restart \`npm start\`); or set ACCORD_ADMIN_SERVICE_KEY`);
  return { addr: state.consentAddr, serviceKey: state.adminServiceKey };
}

/** The options of `export`, checked before connecting; every bad one named. */
function exportArgs(values: Record<string, unknown>): ExportArgs {
  const problems: string[] = [];
  const time = (name: 'since' | 'until') => {
    const v = values[name];
    if (v === undefined) return undefined;
    const d = new Date(String(v));
    if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()))
      problems.push(`--${name} must be an ISO 8601 time (2026-01-31T00:00:00Z)`);
    return d;
  };
  const accountId = typeof values.account === 'string' ? values.account.trim() : '';
  if (!accountId) problems.push('--account is required (an account id)');
  const since = time('since');
  const until = time('until');
  if (since && until && !(since < until)) problems.push('--until must be later than --since');
  if (values.cursor !== undefined && !/^[0-9a-f]{32}$/.test(String(values.cursor)))
    problems.push('--cursor must be the id of the last line received (32 hex digits)');
  if (values.cursor !== undefined && values.resume) problems.push('--cursor and --resume exclude each other');
  if (values.resume && (!values.output || values.gzip)) problems.push('--resume continues an uncompressed --output file; with --gzip pass --cursor');
  if (values.links && values.target !== undefined) problems.push('--links exports link events, which name no target: not with --target');
  if (problems.length) throw new CliError(`export: ${problems.join('; ')} (see --help)`);
  const a: ExportArgs = {
    accountId,
    gzip: values.gzip === true,
    resume: values.resume === true,
    progress: values.quiet !== true,
    links: values.links === true,
  };
  if (since) a.since = since;
  if (until) a.until = until;
  for (const [opt, key] of [
    ['app', 'appId'],
    ['target', 'target'],
    ['subject', 'subject'],
    ['cursor', 'cursor'],
    ['output', 'output'],
  ] as const) {
    const v = values[opt];
    if (typeof v === 'string' && v) a[key] = v;
  }
  return a;
}

/** `label: value` lines, the values in one column: what the commands print for a person. */
export function aligned(fields: Record<string, string>): string {
  const width = Math.max(...Object.keys(fields).map((k) => k.length)) + 1;
  return Object.entries(fields)
    .map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`)
    .join('\n');
}

function required(values: Record<string, unknown>, name: string, command: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v.trim()) throw new CliError(`${command}: --${name} is required (see --help)`);
  return v.trim();
}

/** parseArgs options `--name <value>`. */
const stringOptions = <N extends string>(...names: N[]) => Object.fromEntries(names.map((n) => [n, { type: 'string' }])) as { [K in N]: { type: 'string' } };
/** parseArgs options `--name`, false when absent. */
const flagOptions = <N extends string>(...names: N[]) =>
  Object.fromEntries(names.map((n) => [n, { type: 'boolean', default: false }])) as { [K in N]: { type: 'boolean'; default: false } };

/** The options of `limits`, by the AccountLimits field each sets. */
const LIMIT_OPTIONS = {
  rate: 'requestsPerSecond',
  burst: 'burst',
  'app-rate': 'appRequestsPerSecond',
  'app-burst': 'appBurst',
  'events-per-request': 'maxEventsPerRequest',
  'events-per-day': 'maxEventsPerDay',
} as const;

/** The options of every command (node:util parseArgs); each command reads its own. */
const OPTIONS = {
  ...stringOptions('account', 'app', 'scopes', 'client', 'origins', 'member', 'role', 'since', 'until', 'target', 'subject', 'cursor', 'output'),
  ...stringOptions(...(Object.keys(LIMIT_OPTIONS) as Array<keyof typeof LIMIT_OPTIONS>)),
  ...flagOptions('clear', 'json', 'gzip', 'resume', 'quiet', 'links'),
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type Values = Record<string, string | boolean | undefined>;

/** The clients of the oauth service a command asks for, made on first use and closed after it. */
class OAuthClients {
  private readonly made: Array<{ close(): void }> = [];
  constructor(
    private readonly addr: string,
    private readonly tls: GrpcTls | undefined,
  ) {}
  private make<T extends { close(): void }>(c: T): T {
    this.made.push(c);
    return c;
  }
  oauth = () => this.make(createClient(oauthv1.OAuthServiceService, this.addr, { timeoutMs: 10_000, retries: 2, tls: this.tls }));
  limits = () => this.make(createClient(limitsv1.LimitsServiceService, this.addr, { timeoutMs: 10_000, retries: 2, tls: this.tls }));
  console = () => this.make(createClient(oauthconsolev1.OAuthConsoleServiceService, this.addr, { timeoutMs: 10_000, retries: 2, tls: this.tls }));
  close(): void {
    for (const c of this.made) c.close();
  }
}

/** What a command runs with: the clients, the admin token's metadata, where to print. */
interface AdminContext {
  target: Target;
  clients: OAuthClients;
  opts: { metadata: Metadata };
  json: boolean;
  out(s: string): void;
}

/** One admin command: its arguments, checked before connecting, and what it does with them. */
interface AdminCommand<A> {
  args(values: Values, command: string): A;
  run(ctx: AdminContext, args: A): Promise<void>;
}
const command = <A>(c: AdminCommand<A>) => c as AdminCommand<unknown>;
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const bootstrap = command<oauthv1.BootstrapRequest>({
  args: (values, cmd) => ({
    accountName: required(values, 'account', cmd),
    appName: required(values, 'app', cmd),
    scopes: list(typeof values.scopes === 'string' ? values.scopes : 'consent,dataprocessing,webhooks'),
  }),
  async run({ clients, opts, json, out }, args) {
    const r = await clients.oauth().bootstrap(args, opts);
    const result = { accountId: r.accountId, apiKey: r.apiKey, appId: r.appId, clientId: r.clientId, clientSecret: r.clientSecret, scopes: r.scopes };
    if (json) return out(JSON.stringify(result));
    out(
      [
        `account ${r.accountCreated ? 'created' : 'reused'}: ${r.accountId}`,
        aligned({ apiKey: r.apiKey, appId: r.appId, clientId: r.clientId, clientSecret: r.clientSecret, scopes: r.scopes.join(' ') }),
        '',
        'The client secret is shown only now: store it. Get a token with',
        `  curl -u '${r.clientId}:<clientSecret>' -d grant_type=client_credentials <base_url>/oauth/v0/token`,
      ].join('\n'),
    );
  },
});

const accounts = command<Record<string, never>>({
  args: () => ({}),
  async run({ clients, opts, json, out }) {
    const r = await clients.oauth().listAccounts({}, opts);
    const rows = r.accounts.map((a) => ({ id: a.id, name: a.name, createdAt: a.createdAt?.toISOString() ?? null }));
    if (json) out(JSON.stringify(rows));
    else if (!rows.length) out('no accounts; create one with: npm run -s admin -- bootstrap --account <name> --app <name>');
    else for (const a of rows) out(`${a.id}  ${a.name}  ${a.createdAt ?? ''}`);
  },
});

const apps = command<oauthv1.ListApplicationsRequest>({
  args: (values, cmd) => ({ accountId: required(values, 'account', cmd) }),
  async run({ clients, opts, json, out }, args) {
    const r = await clients.oauth().listApplications(args, opts);
    const rows = r.applications.map((a) => ({
      id: a.id,
      name: a.name,
      clientId: a.clientId,
      scopes: a.scopes,
      allowedOrigins: a.allowedOrigins,
      createdAt: a.createdAt?.toISOString() ?? null,
    }));
    if (json) out(JSON.stringify(rows));
    else if (!rows.length) out('no applications');
    else for (const a of rows) out(`${a.id}  ${a.clientId}  ${a.name}  [${a.scopes.join(' ')}]  ${a.createdAt ?? ''}`);
  },
});

const rotateSecret = command<oauthv1.RotateClientSecretRequest>({
  args: (values, cmd) => ({ clientId: required(values, 'client', cmd) }),
  async run({ clients, opts, json, out }, args) {
    const r = await clients.oauth().rotateClientSecret(args, opts);
    const shown = { clientId: r.clientId, clientSecret: r.clientSecret };
    out(json ? JSON.stringify(shown) : `${aligned(shown)}\n(shown only now; the old secret no longer works)`);
  },
});

const rotateApiKey = command<oauthv1.RotateApiKeyRequest>({
  args: (values, cmd) => ({ accountId: required(values, 'account', cmd) }),
  async run({ clients, opts, json, out }, args) {
    const r = await clients.oauth().rotateApiKey(args, opts);
    const shown = { accountId: r.accountId, apiKey: r.apiKey };
    out(json ? JSON.stringify(shown) : `${aligned(shown)}\n(the old API key no longer works)`);
  },
});

const limits = command<limitsv1.SetAccountLimitsRequest>({
  args: (values, cmd) => limitArgs(values, cmd),
  async run({ clients, opts, json, out }, req) {
    const client = clients.limits();
    const r =
      req.clear || Object.keys(req.limits ?? {}).length
        ? await client.setAccountLimits(req, opts)
        : await client.getAccountLimits({ accountId: req.accountId }, opts);
    // Only the fields the account overrides (the others follow the gateway's defaults).
    const overrides = Object.fromEntries(Object.entries(r.limits ?? {}).filter(([, v]) => v !== undefined));
    if (json) out(JSON.stringify({ accountId: r.accountId, limits: overrides }));
    else if (!Object.keys(overrides).length) out(`account ${r.accountId}: no overrides (the gateway's defaults apply)`);
    else out([`account ${r.accountId}:`, ...Object.entries(overrides).map(([k, v]) => `  ${k}: ${v}${v === 0 ? ' (no limit)' : ''}`)].join('\n'));
  },
});

const setOrigins = command<oauthv1.SetAllowedOriginsRequest>({
  args: (values, cmd) => {
    if (typeof values.origins !== 'string') throw new CliError(`${cmd}: --origins is required ('' allows none; see --help)`);
    return { appId: required(values, 'app', cmd), origins: list(values.origins) };
  },
  async run({ clients, opts, json, out }, args) {
    const a = await clients.oauth().setAllowedOrigins(args, opts);
    out(
      json
        ? JSON.stringify({ appId: a.id, allowedOrigins: a.allowedOrigins })
        : aligned({ appId: a.id, allowedOrigins: a.allowedOrigins.join(' ') || '(none)' }),
    );
  },
});

const consoleLink = command<oauthconsolev1.CreateConsoleLinkRequest>({
  args: (values, cmd) => ({
    accountName: required(values, 'account', cmd),
    memberName: typeof values.member === 'string' ? values.member : '',
    role: typeof values.role === 'string' ? values.role : '',
    ttlSeconds: 0,
  }),
  async run({ target, clients, opts, json, out }, args) {
    const r = await clients.console().createConsoleLink(args, opts);
    const base = (target.baseUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    // The token travels in the fragment: browsers never send it to a server or a log.
    const url = `${base}/console/#link=${r.token}`;
    const expiresAt = r.expiresAt?.toISOString() ?? '';
    if (json) out(JSON.stringify({ url, expiresAt, accountId: r.accountId, member: r.member?.name, role: r.member?.role }));
    else out(`${url}\n(one use, valid until ${expiresAt}; signs in as ${r.member?.name} (${r.member?.role}))`);
  },
});

/** The commands on the oauth service's admin RPCs (`export` talks to the consent service: runExport). */
const COMMANDS: Record<string, AdminCommand<unknown>> = {
  bootstrap,
  accounts,
  apps,
  'rotate-secret': rotateSecret,
  'rotate-api-key': rotateApiKey,
  limits,
  'set-origins': setOrigins,
  'console-link': consoleLink,
};

/**
 * Runs one admin command. Results go to stdout (one JSON document with --json), every error to
 * stderr as one line. Resolves to the exit code.
 */
export async function runAdmin(argv: string[], io: AdminIO): Promise<number> {
  const out = (s: string) => void io.stdout.write(s.endsWith('\n') ? s : s + '\n');
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    io.stderr.write(`error: ${(err as Error).message} (see --help)\n`);
    return 1;
  }
  const { values, positionals } = parsed;
  const name = positionals[0];
  if (values.help || name === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  if (!name) {
    io.stderr.write(`error: a command is required\n\n${USAGE}`);
    return 1;
  }
  if (positionals.length > 1) {
    io.stderr.write(`error: unexpected argument ${JSON.stringify(positionals[1])} (see --help)\n`);
    return 1;
  }
  if (name === 'export') return runExportCommand(values, io);

  let target: Target | undefined;
  let clients: OAuthClients | undefined;
  let tls: GrpcTls | undefined;
  try {
    const cmd = COMMANDS[name];
    if (!cmd) throw new CliError(`unknown command ${JSON.stringify(name)}; one of ${['export', ...Object.keys(COMMANDS)].join(', ')} (see --help)`);
    // Check the arguments before connecting.
    const args = cmd.args(values, name);
    target = resolveTarget(io.env, io.cwd ?? process.cwd());
    // with mutual TLS between the services (the chart's oauth pod), TLS to the oauth service too,
    // presenting the admin identity's certificate; the admin token still decides
    tls = adminTls(io.env);
    clients = new OAuthClients(target.addr, tls);
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${target.adminToken}`);
    await cmd.run({ target, clients, opts: { metadata }, json: values.json, out }, args);
    return 0;
  } catch (err) {
    io.stderr.write(`error: ${describe(err, target)}\n`);
    return 1;
  } finally {
    clients?.close();
    tls?.close();
  }
}

/** `export`: the consent service's export, run by runExport (cli/export.ts). */
async function runExportCommand(values: Values, io: AdminIO): Promise<number> {
  try {
    return await runExport(exportArgs(values), resolveConsentTarget(io.env, io.cwd ?? process.cwd()), io);
  } catch (err) {
    io.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  }
}

function limitArgs(values: Values, command: string): limitsv1.SetAccountLimitsRequest {
  const limits: limitsv1.AccountLimits = {};
  for (const [option, field] of Object.entries(LIMIT_OPTIONS)) {
    const v = values[option];
    if (typeof v !== 'string') continue;
    const n = Number(v);
    const whole = option !== 'rate' && option !== 'app-rate';
    if (!v.trim() || !Number.isFinite(n) || n < 0 || (whole && !Number.isInteger(n))) {
      throw new CliError(`${command}: --${option} must be ${whole ? 'a whole number' : 'a number'} >= 0 (0 = no limit)`);
    }
    limits[field] = n;
  }
  if (values.clear && Object.keys(limits).length) throw new CliError(`${command}: --clear cannot be combined with limit options`);
  return { accountId: required(values, 'account', command), limits, clear: values.clear === true };
}

function describe(err: unknown, target: Target | undefined): string {
  if (err instanceof CliError) return err.message;
  if (isServiceError(err)) {
    const where = target ? ` at ${target.addr}` : '';
    switch (err.code) {
      case status.UNAVAILABLE:
      case status.DEADLINE_EXCEEDED:
        return `cannot reach the oauth service${where}: is \`npm start\` running?`;
      case status.UNAUTHENTICATED:
      case status.PERMISSION_DENIED:
        return `the oauth service${where} refused the admin token: ${err.details}`;
      default:
        return err.details || err.message;
    }
  }
  return (err as Error)?.message ?? String(err);
}

if (require.main === module) {
  runAdmin(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`error: ${(err as Error)?.message ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
