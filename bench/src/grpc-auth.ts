/**
 * `npm run bench:grpc-auth`: what authentication adds to one gRPC hop, in CPU per call, client and
 * server together (both in this process, on loopback): the same unary RPC of the consent service's
 * definition served three times — open to anyone (no credential: the cost of the hop itself), to a
 * service identity (`x-accord-service`, as the gateway calls the services) and to a platform
 * caller (`authorization: Bearer <access token>`, verified against a JWKS and bound to its
 * account). The handler answers at once, so the differences are the guard's and the credential's.
 * BENCH_GRPC_AUTH_CALLS (default 20000) sequential calls per variant after 2000 to warm up, in
 * BENCH_GRPC_AUTH_ROUNDS (default 3) rounds whose variants take turns; the median is printed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';
import { exportJWK, SignJWT } from 'jose';
import {
  createClient,
  createLogger,
  implement,
  KeyStore,
  parseServicePeers,
  ServicePeers,
  ServiceTokenSigner,
  startGrpcServer,
  type GrpcAuth,
  type RpcAccess,
} from '@accord/common';
import { consentv1 } from '@accord/proto';

const CALLS = Number(process.env.BENCH_GRPC_AUTH_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_GRPC_AUTH_ROUNDS ?? 3);
const ISSUER = 'http://127.0.0.1:8080/oauth/v0';
const logger = createLogger('bench', 'silent');

async function main(): Promise<void> {
  const gateway = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const tokenKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub = await exportJWK(tokenKey.publicKey);
  const keys = new KeyStore(async () => [{ kid: 'k', kty: 'EC', alg: 'ES256', use: 'sig', crv: 'P-256', x: pub.x!, y: pub.y!, n: '', e: '' }], 300_000, logger);
  const auth: GrpcAuth = {
    peers: new ServicePeers(parseServicePeers(JSON.stringify({ gateway: gateway.publicKey.export({ type: 'spki', format: 'pem' }) }))),
    accessTokens: { keys, issuer: ISSUER },
  };
  const accessToken = await new SignJWT({ acc: 'acc', app: 'app', scope: 'consent' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience('accord')
    .setSubject('client')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(tokenKey.privateKey);

  // GetConsent answered at once with an empty event: the hop, the guard and nothing else
  const serve = async (row: RpcAccess) => {
    const access = Object.fromEntries(Object.keys(consentv1.ConsentServiceService).map((m) => [m, row]));
    const handlers = Object.fromEntries(Object.keys(consentv1.ConsentServiceService).map((m) => [m, async () => consentv1.ConsentEvent.fromPartial({})]));
    return startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      auth,
      services: [{ definition: consentv1.ConsentServiceService, implementation: implement(handlers as never, logger), access }],
    });
  };
  const open = await serve({ services: [], public: true });
  const guarded = await serve({ scope: 'consent', services: ['gateway'] });
  const signer = new ServiceTokenSigner('gateway', gateway.privateKey);
  const variants = [
    { name: 'no credential (open RPC)', client: createClient(consentv1.ConsentServiceService, `127.0.0.1:${open.port}`, { retries: 0 }), metadata: undefined },
    {
      name: 'service identity (x-accord-service)',
      client: createClient(consentv1.ConsentServiceService, `127.0.0.1:${guarded.port}`, { retries: 0, identity: signer }),
      metadata: undefined,
    },
    {
      name: 'platform caller (Bearer access token)',
      client: createClient(consentv1.ConsentServiceService, `127.0.0.1:${guarded.port}`, { retries: 0 }),
      metadata: (() => {
        const m = new Metadata();
        m.set('authorization', `Bearer ${accessToken}`);
        return m;
      })(),
    },
  ];
  const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const run = async (v: (typeof variants)[number], n: number) => {
    const request = { accountId: 'acc', id: 'x' };
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await v.client.getConsent(request, v.metadata ? { metadata: v.metadata } : {});
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / n;
  };
  for (const v of variants) await run(v, 2_000);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...variants].reverse() : variants;
    for (const v of order) results.get(v.name)!.push(await run(v, CALLS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const base = median(results.get(variants[0]!.name)!);
  console.log(`CPU per gRPC call, client and server in one process (${CALLS} calls × ${ROUNDS} rounds, median):`);
  for (const v of variants) {
    const ms = median(results.get(v.name)!);
    console.log(
      `  ${v.name.padEnd(40)} ${ms.toFixed(4)} ms${v === variants[0] ? '' : `  (+${(ms - base).toFixed(4)} ms)`}   rounds: ${results
        .get(v.name)!
        .map((x) => x.toFixed(4))
        .join(', ')}`,
    );
  }
  for (const v of variants) v.client.close();
  await open.shutdown(100);
  await guarded.shutdown(100);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
