// The whole stack with mutual TLS on every gRPC hop, each service with its own certificate as the
// chart renders it (its CA, subject CN spiffe://accord/<service>): the gateway reaches every
// service, the services each other, and a certificate alone proves its identity to the access
// tables — the same wiring as the cluster, without one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { status } from '@grpc/grpc-js';
import { createClient, grpcTls, type GrpcTls } from '@accord/common';
import { consentv1, dataprocessingv1 } from '@accord/proto';
import { expectGrpcError, START } from '@accord/testkit';
import { parseAllDocuments } from 'yaml';
import { startStack, type Stack } from './harness';
import { helmBin } from '../charts/accord/test/helm';

const IDENTITIES = ['gateway', 'oauth', 'consent', 'dataprocessing', 'webhook', 'admin'] as const;
type TlsEnv = { ACCORD_GRPC_TLS_CA_FILE: string; ACCORD_GRPC_TLS_CERT_FILE: string; ACCORD_GRPC_TLS_KEY_FILE: string };

let dir: string;
let stack: Stack;
const tlsEnv = {} as Record<(typeof IDENTITIES)[number], TlsEnv>;
const opened: Array<{ close(): void }> = [];

beforeAll(async () => {
  const rendered = spawnSync(helmBin(), ['template', 'accord', path.resolve(__dirname, '..', 'charts', 'accord'), '-n', 'accord-system'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (rendered.status !== 0) throw new Error(rendered.stderr);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const objects = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as any);
  dir = mkdtempSync(path.join(tmpdir(), 'accord-tls-stack-'));
  for (const id of IDENTITIES) {
    const secret = objects.find((o) => o?.kind === 'Secret' && o.metadata.name === `accord-${id}-tls`);
    mkdirSync(path.join(dir, id));
    for (const key of ['ca.crt', 'tls.crt', 'tls.key']) writeFileSync(path.join(dir, id, key), Buffer.from(secret.data[key], 'base64'));
    tlsEnv[id] = {
      ACCORD_GRPC_TLS_CA_FILE: path.join(dir, id, 'ca.crt'),
      ACCORD_GRPC_TLS_CERT_FILE: path.join(dir, id, 'tls.crt'),
      ACCORD_GRPC_TLS_KEY_FILE: path.join(dir, id, 'tls.key'),
    };
  }
  // each service started with its own certificate's files (as its pod mounts them)
  for (const svc of Object.keys(START) as Array<keyof typeof START>) {
    const start = START[svc];
    START[svc] = (env, logger, hooks) => start({ ...env, ...tlsEnv[svc] }, logger, hooks);
  }
  stack = await startStack('grpc-tls-stack');
});

afterAll(async () => {
  for (const c of opened) c.close();
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const tlsAs = (id: (typeof IDENTITIES)[number]): GrpcTls => {
  const tls = grpcTls(tlsEnv[id])!;
  opened.push(tls);
  return tls;
};

test('the gateway reaches every service over mutual TLS: /readyz', async () => {
  const r = await stack.request('GET', '/readyz');
  expect([r.status, r.body]).toEqual([
    200,
    { status: 'ready', services: { oauth: 'SERVING', consent: 'SERVING', dataprocessing: 'SERVING', webhook: 'SERVING' } },
  ]);
});

test("a certificate of the chart's CA proves its service to the access tables, and only where the row names it", async () => {
  const dp = createClient(dataprocessingv1.DataProcessingServiceService, stack.env.ACCORD_DATAPROCESSING_ADDR!, { tls: tlsAs('gateway'), retries: 0 });
  const consent = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { tls: tlsAs('dataprocessing'), retries: 0 });
  opened.push(dp, consent);
  expect(await dp.listGroups({ accountId: 'acc' })).toEqual({ groups: [], nextCursor: '' });
  expect(await consent.getCurrentStates({ accountId: 'acc', subject: 's', issuer: 'i', targets: ['t'] })).toEqual({ events: [] });
  const refused = await expectGrpcError(consent.getConsent({ accountId: 'acc', id: 'x' }), status.PERMISSION_DENIED);
  expect(refused.details).toBe('accord.consent.v1.ConsentService/GetConsent is not open to the dataprocessing service');
  // plaintext to a TLS port: no answer at all
  const plain = createClient(consentv1.ConsentServiceService, stack.env.ACCORD_CONSENT_ADDR!, { retries: 0 });
  opened.push(plain);
  await expectGrpcError(plain.getConsent({ accountId: 'acc', id: 'x' }), status.UNAVAILABLE);
});
