/**
 * The authorization matrix of the gRPC surface, built from the .proto descriptors: every RPC of
 * every service (as reflection publishes them) against every kind of caller. An RPC of the
 * descriptors without a row in its service's access table fails here (the server would not even
 * start), and every row is proved against the callers it names and refuses the others.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import {
  accordPackageDefinition,
  SERVICE_IDENTITIES,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
  serviceSigner,
  type RpcAccess,
  type ServiceIdentity,
} from '@accord/common';
import { activityAccess, consentAccess, importAccess } from '@accord/consent';
import { dataprocessingAccess } from '@accord/dataprocessing';
import { consoleAccess, limitsAccess, oauthAccess } from '@accord/oauth';
import { webhookAccess } from '@accord/webhook';
import { startStack, type Credentials, type Stack } from './harness';

/** Each service of the descriptors, with its access table and the process serving it. */
const TABLES: Record<string, { access: Record<string, RpcAccess>; process: 'oauth' | 'consent' | 'dataprocessing' | 'webhook' }> = {
  'accord.consent.v1.ConsentService': { access: consentAccess, process: 'consent' },
  'accord.consent.v1.ConsentActivityService': { access: activityAccess, process: 'consent' },
  'accord.consent.v1.ConsentImportService': { access: importAccess, process: 'consent' },
  'accord.dataprocessing.v1.DataProcessingService': { access: dataprocessingAccess, process: 'dataprocessing' },
  'accord.webhook.v1.WebhookService': { access: webhookAccess, process: 'webhook' },
  'accord.oauth.v1.OAuthService': { access: oauthAccess, process: 'oauth' },
  'accord.oauth.v1.LimitsService': { access: limitsAccess, process: 'oauth' },
  'accord.oauth.v1.OAuthConsoleService': { access: consoleAccess, process: 'oauth' },
};

interface MethodDef {
  path: string;
  responseStream: boolean;
  requestSerialize(value: unknown): Buffer;
  responseDeserialize(bytes: Buffer): unknown;
}

/** Every RPC of Accord's .proto files: `accord.<service>.v1.<Service>/<Method>`, from the descriptors reflection serves. */
function rpcsOfDescriptors(): Array<{ service: string; method: string; def: MethodDef }> {
  const pkg = accordPackageDefinition() as unknown as Record<string, Record<string, MethodDef & { path?: string }>>;
  const out: Array<{ service: string; method: string; def: MethodDef }> = [];
  for (const [service, entry] of Object.entries(pkg)) {
    if (!service.startsWith('accord.')) continue;
    for (const [method, def] of Object.entries(entry)) if (typeof def?.path === 'string') out.push({ service, method, def });
  }
  return out.sort((a, b) => a.def.path.localeCompare(b.def.path));
}

const RPCS = rpcsOfDescriptors();
const rowOf = (service: string, method: string): RpcAccess | undefined => {
  const access = TABLES[service]?.access;
  const key = method[0]!.toLowerCase() + method.slice(1);
  return access && Object.hasOwn(access, key) ? access[key] : undefined;
};

type Outcome = 'admitted' | 'UNAUTHENTICATED' | 'PERMISSION_DENIED';
/**
 * The refusals of the servers' guard (services/common/src/grpc-auth.ts), by their details: a
 * handler that was reached may itself answer UNAUTHENTICATED (a console session unknown) or
 * PERMISSION_DENIED (a member's role), and that call was admitted.
 */
const GUARD: Record<number, RegExp> = {
  [status.UNAUTHENTICATED]: /^(invalid credentials|credentials required: authorization: Bearer <access token>)$/,
  [status.PERMISSION_DENIED]: / is not open to |needs a token granted the scope|cannot act for another|^admin RPCs are disabled/,
};
const SCOPES = ['consent', 'dataprocessing', 'webhooks'] as const;

let stack: Stack;
let a: Credentials;
let b: Credentials;
const clients = new Map<string, Client>();
/** Access tokens of account A by the scopes they lack (`''`: all three), and of account B with all three. */
const tokensOfA = new Map<string, string>();
let tokenOfB: string;

beforeAll(async () => {
  stack = await startStack('grpc-matrix');
  a = await stack.bootstrap({ account: 'matrix-a', app: 'a', scopes: [...SCOPES] });
  b = await stack.bootstrap({ account: 'matrix-b', app: 'b', scopes: [...SCOPES] });
  tokensOfA.set('', await stack.token(a, SCOPES.join(' ')));
  for (const s of SCOPES) tokensOfA.set(s, await stack.token(a, SCOPES.filter((x) => x !== s).join(' ')));
  tokenOfB = await stack.token(b, SCOPES.join(' '));
  for (const p of ['oauth', 'consent', 'dataprocessing', 'webhook'] as const)
    clients.set(p, new Client(`127.0.0.1:${stack.ports[p]}`, credentials.createInsecure()));
});

afterAll(async () => {
  for (const c of clients.values()) c.close();
  await stack?.stop();
});

const withHeader = (key: string, value: string) => {
  const md = new Metadata();
  md.set(key, value);
  return md;
};
const bearer = (token: string) => withHeader('authorization', `Bearer ${token}`);

/** The callers of the matrix: each with the metadata it sends and what a row lets it do. */
function callers(): Array<{ name: string; metadata: (row: RpcAccess) => Metadata; expected: (row: RpcAccess) => Outcome }> {
  const onlyPublic = (row: RpcAccess, otherwise: Outcome): Outcome => (row.public ? 'admitted' : otherwise);
  // a service token of the right shape, signed by a key no service knows
  const forged = new ServiceTokenSigner('gateway', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  const list: ReturnType<typeof callers> = [
    { name: 'no credential', metadata: () => new Metadata(), expected: (row) => onlyPublic(row, 'UNAUTHENTICATED') },
    { name: 'a malformed bearer token', metadata: () => bearer('not-a-token'), expected: (row) => onlyPublic(row, 'UNAUTHENTICATED') },
    {
      name: 'a service token signed by an unknown key',
      metadata: () => withHeader(SERVICE_TOKEN_HEADER, forged.token()),
      expected: (row) => onlyPublic(row, 'UNAUTHENTICATED'),
    },
    {
      name: "another account's token, naming account A",
      metadata: () => bearer(tokenOfB),
      expected: (row) => onlyPublic(row, row.admin ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED'),
    },
    {
      name: "account A's token without the row's scope",
      metadata: (row) => bearer(tokensOfA.get(row.scope ?? 'consent')!),
      expected: (row) => onlyPublic(row, row.admin ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED'),
    },
    {
      name: "account A's own token with every scope",
      metadata: () => bearer(tokensOfA.get('')!),
      expected: (row) => onlyPublic(row, row.admin ? 'UNAUTHENTICATED' : row.scope ? 'admitted' : 'PERMISSION_DENIED'),
    },
    {
      name: 'the admin token',
      metadata: () => bearer(stack.env.ACCORD_ADMIN_TOKEN!),
      expected: (row) => onlyPublic(row, row.admin ? 'admitted' : 'UNAUTHENTICATED'),
    },
  ];
  for (const id of SERVICE_IDENTITIES as readonly ServiceIdentity[]) {
    const signer = serviceSigner(id, stack.secrets.serviceKeys[id])!;
    list.push({
      name: `the ${id} service identity`,
      metadata: () => withHeader(SERVICE_TOKEN_HEADER, signer.token()),
      expected: (row) => onlyPublic(row, row.services.includes(id) ? 'admitted' : 'PERMISSION_DENIED'),
    });
  }
  return list;
}

async function outcomeOf(process: string, def: MethodDef, metadata: Metadata): Promise<{ outcome: Outcome; detail: string }> {
  const client = clients.get(process)!;
  // every message names account A where it has the field (protobufjs ignores it elsewhere)
  const request = { account_id: a.accountId };
  const outcome = (err: ServiceError | null): { outcome: Outcome; detail: string } =>
    err && GUARD[err.code]?.test(err.details)
      ? { outcome: status[err.code] as Outcome, detail: err.details }
      : { outcome: 'admitted', detail: err ? `${status[err.code]}: ${err.details}` : 'OK' };
  const options = { deadline: Date.now() + 20_000 };
  if (def.responseStream) {
    // a server stream: its status once it ends (the messages are read and dropped)
    const call = client.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, request, metadata, options);
    return new Promise((resolve) => {
      call.on('data', () => undefined);
      call.on('error', (err: ServiceError) => resolve(outcome(err)));
      call.on('end', () => resolve(outcome(null)));
    });
  }
  return new Promise((resolve) =>
    client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, request, metadata, options, (err: ServiceError | null) =>
      resolve(outcome(err)),
    ),
  );
}

test('the descriptors list the RPCs of every service, and every one has a row in its service’s access table', () => {
  expect(RPCS.length).toBeGreaterThan(80);
  expect(new Set(RPCS.map((r) => r.service))).toEqual(new Set(Object.keys(TABLES)));
  expect(RPCS.filter((r) => !rowOf(r.service, r.method)).map((r) => r.def.path)).toEqual([]);
});

describe.each(RPCS.map((r) => [r.def.path, r] as const))('%s', (_path, rpc) => {
  test('admits exactly the callers its row names, and refuses every other', async () => {
    const row = rowOf(rpc.service, rpc.method);
    expect(row).toBeDefined();
    const wrong: string[] = [];
    for (const caller of callers()) {
      const expected = caller.expected(row!);
      const got = await outcomeOf(TABLES[rpc.service]!.process, rpc.def, caller.metadata(row!));
      if (got.outcome !== expected) wrong.push(`${caller.name}: expected ${expected}, got ${got.outcome} (${got.detail})`);
    }
    expect(wrong).toEqual([]);
  });
});
