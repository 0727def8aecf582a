// Mutual TLS between two of Accord's services on loopback, with certificates minted here by
// openssl: the identity in a client certificate's URI SAN admitted where the access table names
// it, refused without a certificate, with another identity's or another CA's, and certificates
// (a new CA included) swapped on disk while calls continue, picked up without a restart.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { credentials, Metadata, status } from '@grpc/grpc-js';
import { consentv1 } from '@accord/proto';
import pino from 'pino';
import {
  createClient,
  grpcTls,
  healthProbe,
  identityOfCertificate,
  implement,
  parseServicePeers,
  ServicePeers,
  ServiceTokenSigner,
  sleep,
  startGrpcServer,
  type CallContext,
  type GrpcAuth,
  type GrpcTls,
  type RunningGrpcServer,
} from '../src';

const logger = pino({ level: 'silent' });
const REFRESH_MS = 200;
let dir: string;

const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
/** The key of every certificate here: a new P-256 key, unencrypted. */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A CA: <name>.crt, <name>.key. */
function mintCa(name: string): void {
  openssl('req', '-x509', ...NEW_KEY, '-days', '1', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`);
}

/** A certificate of `ca` for a service identity (URI SAN spiffe://accord/<identity>), valid for 127.0.0.1: <name>.crt, <name>.key. */
function mintCert(name: string, ca: string, identity: string): void {
  openssl('req', '-new', ...NEW_KEY, '-subj', `/CN=${identity}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
  writeFileSync(
    path.join(dir, `${name}.ext`),
    `subjectAltName=URI:spiffe://accord/${identity},DNS:localhost,IP:127.0.0.1\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\n`,
  );
  const signedByCa = ['-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'];
  openssl('x509', '-req', '-in', `${name}.csr`, ...signedByCa, '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.crt`);
}

const file = (name: string) => path.join(dir, name);
/** Replaces a file at once, as the kubelet swaps a mounted Secret (a rename, never a half-written file). */
function put(target: string, content: Buffer | string): void {
  writeFileSync(`${file(target)}.tmp`, content);
  renameSync(`${file(target)}.tmp`, file(target));
}
/** The files a service runs with: <who>-ca.pem, <who>-cert.pem, <who>-key.pem. */
function install(who: string, cert: string, cas: string[]): void {
  put(`${who}-ca.pem`, Buffer.concat(cas.map((c) => readFileSync(file(`${c}.crt`)))));
  put(`${who}-cert.pem`, readFileSync(file(`${cert}.crt`)));
  put(`${who}-key.pem`, readFileSync(file(`${cert}.key`)));
}
const tlsOf = (who: string): GrpcTls =>
  grpcTls({
    ACCORD_GRPC_TLS_CA_FILE: file(`${who}-ca.pem`),
    ACCORD_GRPC_TLS_CERT_FILE: file(`${who}-cert.pem`),
    ACCORD_GRPC_TLS_KEY_FILE: file(`${who}-key.pem`),
    ACCORD_GRPC_TLS_REFRESH_MS: REFRESH_MS,
  })!;

describe('mutual TLS between services', () => {
  const gatewayKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const gatewayToken = new ServiceTokenSigner('gateway', gatewayKey.privateKey);
  let server: RunningGrpcServer;
  let serverTls: GrpcTls;
  let address: string;
  const opened: Array<{ close(): void }> = [];
  let serverAuth: GrpcAuth;
  const row = { scope: 'consent' as const, services: ['gateway' as const] };
  const access = Object.fromEntries(Object.keys(consentv1.ConsentServiceService).map((m) => [m, row]));
  const handlers = Object.fromEntries(
    Object.keys(consentv1.ConsentServiceService).map((m) => [
      m,
      async (_req: unknown, ctx: CallContext) =>
        consentv1.ConsentEvent.fromPartial({ id: ctx.caller.kind === 'service' ? ctx.caller.service : ctx.caller.kind }),
    ]),
  );

  /** A consent client; its GetConsent answers with the identity the server saw in the call. */
  const client = (opts: { tls?: GrpcTls; insecure?: boolean; serverOnlyCa?: string; token?: boolean } = {}) => {
    const c = createClient(consentv1.ConsentServiceService, address, {
      retries: 0,
      timeoutMs: 3_000,
      tls: opts.tls,
      identity: opts.token ? gatewayToken : undefined,
    });
    opened.push(c);
    return c;
  };
  const whoAmI = async (c: ReturnType<typeof client>) => (await c.getConsent({ accountId: 'acc', id: 'x' })).id;
  const codeOf = async (p: Promise<unknown>) =>
    p.then(
      () => 'OK',
      (err: { code?: number }) => status[err.code ?? status.UNKNOWN],
    );

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'accord-grpc-tls-'));
    mintCa('ca1');
    mintCa('ca2');
    mintCa('rogue');
    mintCert('consent1', 'ca1', 'consent');
    mintCert('gateway1', 'ca1', 'gateway');
    mintCert('webhook1', 'ca1', 'webhook');
    mintCert('gateway-rogue', 'rogue', 'gateway');
    mintCert('consent2', 'ca2', 'consent');
    mintCert('gateway2', 'ca2', 'gateway');
    install('consent', 'consent1', ['ca1']);
    install('gateway', 'gateway1', ['ca1']);
    install('webhook', 'webhook1', ['ca1']);
    install('rogue', 'gateway-rogue', ['ca1']);

    serverTls = tlsOf('consent');
    serverAuth = {
      peers: new ServicePeers(parseServicePeers(JSON.stringify({ gateway: gatewayKey.publicKey.export({ type: 'spki', format: 'pem' }) }))),
    };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      auth: { ...serverAuth, tls: serverTls },
      healthPort: 0,
      services: [{ definition: consentv1.ConsentServiceService, implementation: implement(handlers as never, logger), access }],
    });
    address = `127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    for (const c of opened) c.close();
    await server?.shutdown(100);
    serverTls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a certificate's URI SAN names its service identity; other URIs and none name nothing", () => {
    expect(serverTls.identity()).toBe('consent');
    expect(identityOfCertificate({ subjectaltname: 'DNS:accord-consent, URI:spiffe://accord/gateway' })).toBe('gateway');
    expect(identityOfCertificate({ subjectaltname: 'URI:spiffe://other/gateway, URI:spiffe://accord/nobody' })).toBeUndefined();
    expect(identityOfCertificate(undefined)).toBeUndefined();
    // without URI SANs (Helm's genSignedCert), the subject CN
    expect(identityOfCertificate({ subjectaltname: 'DNS:accord-consent', subject: { CN: 'spiffe://accord/consent' } })).toBe('consent');
    expect(identityOfCertificate({ subjectaltname: 'URI:spiffe://other/x', subject: { CN: 'spiffe://accord/consent' } })).toBeUndefined();
    expect(identityOfCertificate({ subject: { CN: 'accord-consent' } })).toBeUndefined();
  });

  test('the gateway with its certificate is admitted as the gateway, with its service token or by the certificate alone', async () => {
    const tls = tlsOf('gateway');
    opened.push(tls);
    expect(await whoAmI(client({ tls, token: true }))).toBe('gateway');
    expect(await whoAmI(client({ tls }))).toBe('gateway');
  });

  test('refused: no client certificate (even with a valid service token), an unlisted identity, a token of another identity than the certificate, another CA, plaintext', async () => {
    // server-side TLS only, as a platform caller connects: the token alone proves nothing
    const serverSideOnly = { channel: credentials.createSsl(readFileSync(file('consent-ca.pem'))), server: undefined, identity: () => undefined, close() {} };
    expect(await codeOf(whoAmI(client({ tls: serverSideOnly as unknown as GrpcTls, token: true })))).toBe('UNAUTHENTICATED');
    expect(await codeOf(whoAmI(client({ tls: serverSideOnly as unknown as GrpcTls })))).toBe('UNAUTHENTICATED');

    const webhook = tlsOf('webhook');
    opened.push(webhook);
    expect(await codeOf(whoAmI(client({ tls: webhook })))).toBe('PERMISSION_DENIED');
    // the webhook's certificate with the gateway's token: the token must be the certificate's identity
    expect(await codeOf(whoAmI(client({ tls: webhook, token: true })))).toBe('UNAUTHENTICATED');

    // a gateway certificate of another CA is no certificate at all
    const rogue = tlsOf('rogue');
    opened.push(rogue);
    expect(await codeOf(whoAmI(client({ tls: rogue })))).toBe('UNAUTHENTICATED');
    expect(await codeOf(whoAmI(client({ tls: rogue, token: true })))).toBe('UNAUTHENTICATED');

    expect(await codeOf(whoAmI(client({ token: true })))).toBe('UNAVAILABLE');
  });

  test("the kubelet's plaintext gRPC probe has a health-only port; the service port speaks only TLS", async () => {
    const probe = healthProbe(`127.0.0.1:${server.healthPort}`);
    const onServicePort = healthProbe(address);
    opened.push(probe, onServicePort);
    expect(await probe.serving()).toBe(true);
    expect(await onServicePort.serving()).toBe(false);
  });

  test('a platform caller over server-side TLS with its bearer token reaches the scope check (no client certificate needed)', async () => {
    const serverSideOnly = { channel: credentials.createSsl(readFileSync(file('consent-ca.pem'))), identity: () => undefined, close() {} };
    const m = new Metadata();
    m.set('authorization', 'Bearer not-a-token');
    const c = client({ tls: serverSideOnly as unknown as GrpcTls });
    // no access-token keys configured here: the token is refused as invalid, past the transport
    expect(await codeOf(c.getConsent({ accountId: 'acc', id: 'x' }, { metadata: m }))).toBe('UNAUTHENTICATED');
    const details = await c.getConsent({ accountId: 'acc', id: 'x' }, { metadata: m }).catch((err: { details: string }) => err.details);
    expect(details).toBe('invalid credentials');
  });

  test('every certificate and the CA swapped on disk while calls continue: picked up without a restart, no call lost', async () => {
    const gateway = tlsOf('gateway');
    opened.push(gateway);
    const c = client({ tls: gateway, token: true });
    expect(await whoAmI(c)).toBe('gateway');

    let stop = false;
    let ok = 0;
    const failures: string[] = [];
    const load = (async () => {
      while (!stop) {
        await whoAmI(c).then(
          () => ok++,
          (err: Error) => failures.push(err.message),
        );
      }
    })();
    const settle = () => sleep(REFRESH_MS * 3);

    // 1. both sides trust the old and the new CA
    install('consent', 'consent1', ['ca1', 'ca2']);
    install('gateway', 'gateway1', ['ca1', 'ca2']);
    await settle();
    // 2. new certificates from the new CA, the key and the certificate replaced one after the other
    put('consent-cert.pem', readFileSync(file('consent2.crt')));
    put('gateway-cert.pem', readFileSync(file('gateway2.crt')));
    await sleep(REFRESH_MS / 2);
    put('consent-key.pem', readFileSync(file('consent2.key')));
    put('gateway-key.pem', readFileSync(file('gateway2.key')));
    await settle();
    // 3. the old CA retired
    install('consent', 'consent2', ['ca2']);
    install('gateway', 'gateway2', ['ca2']);
    await settle();
    stop = true;
    await load;
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(20);

    // The server now presents the new certificate: a client trusting only the old CA cannot connect,
    // one trusting only the new CA can…
    const old = { channel: credentials.createSsl(readFileSync(file('ca1.crt')), readFileSync(file('gateway1.key')), readFileSync(file('gateway1.crt'))) };
    expect(await codeOf(whoAmI(client({ tls: old as unknown as GrpcTls })))).toBe('UNAVAILABLE');
    // …and the gateway's long-lived credentials present its new certificate on a new connection (a
    // second server, so that no connection of before is reused), where only the new CA is trusted.
    const second = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      auth: { ...serverAuth, tls: tlsOf('consent') },
      services: [{ definition: consentv1.ConsentServiceService, implementation: implement(handlers as never, logger), access }],
    });
    try {
      const fresh = createClient(consentv1.ConsentServiceService, `127.0.0.1:${second.port}`, { retries: 0, timeoutMs: 3_000, tls: gateway });
      opened.push(fresh);
      expect(await whoAmI(fresh)).toBe('gateway');
    } finally {
      await second.shutdown(100);
    }
  });
});
