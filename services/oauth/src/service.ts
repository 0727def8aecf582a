import { connectMongo, implement, loadSigningKeys, serveGrpc, serviceAuth, syncIndexes, type Logger } from '@accord/common';
import { limitsv1, oauthconsolev1, oauthv1 } from '@accord/proto';
import { resolveHashKey, type Config } from './config';
import { ConsoleCore } from './app/console';
import { CredentialCrypto } from './domain/secrets';
import { consoleAccess, limitsAccess, oauthAccess } from './grpc/access';
import { consoleHandlers } from './grpc/console-handlers';
import { oauthHandlers } from './grpc/handlers';
import { Limits } from './app/limits';
import { limitsHandlers } from './grpc/limits-handlers';
import { OAuthCore } from './app/oauth';
import { ensureExpiry } from './store/mongo/expiry';
import { oauthStoreOn } from './store/mongo/store';

/** Starts the oauth service: MongoDB, indexes, signing keys, gRPC. */
export async function startOAuth(config: Config, logger: Logger): Promise<{ port: number; stop(): Promise<void> }> {
  const hashKey = resolveHashKey(config);
  if (hashKey.insecureDefault) {
    logger.warn('ACCORD_HASH_KEY is not set: using the INSECURE development default; set it (32+ random characters) for any real deployment');
  }
  const { keys, generated } = await loadSigningKeys(config.ACCORD_TOKEN_SIGNING_KEYS);
  if (generated) {
    logger.warn(
      { kid: keys[0]!.kid },
      'ACCORD_TOKEN_SIGNING_KEYS is not set: signing with an ephemeral key; tokens stop verifying on restart and differ between replicas',
    );
  }
  if (!config.ACCORD_ADMIN_TOKEN) logger.warn('ACCORD_ADMIN_TOKEN is not set: admin RPCs (bootstrap, rotation, listing) are disabled');

  const conn = await connectMongo(config.MONGO_URL, logger);
  try {
    const { store, models } = oauthStoreOn(conn);
    await syncIndexes(conn);
    const expiry = await ensureExpiry([models.tokenFamilies, models.usage, models.links, models.sessions], logger);
    const crypto = new CredentialCrypto(hashKey.key);
    const core = new OAuthCore({
      store,
      crypto,
      signingKeys: keys,
      baseUrl: config.ACCORD_BASE_URL,
      accessTokenTtl: config.ACCORD_ACCESS_TOKEN_TTL_MS / 1_000,
      refreshTokenTtl: config.ACCORD_REFRESH_TOKEN_TTL_MS / 1_000,
      clientCacheMs: config.ACCORD_CLIENT_CACHE_MS,
      logger,
    });
    const consoleCore = new ConsoleCore({ store, oauth: core, crypto });
    // no platform callers: the operator (admin token) and Accord's services only
    const { auth } = serviceAuth('oauth', config, logger, { adminToken: config.ACCORD_ADMIN_TOKEN, jwks: async () => core.jwks });
    const served = await serveGrpc(config, {
      services: [
        {
          definition: oauthv1.OAuthServiceService,
          implementation: implement<oauthv1.OAuthServiceServer>(oauthHandlers(core), logger),
          access: oauthAccess,
        },
        {
          definition: limitsv1.LimitsServiceService,
          implementation: implement<limitsv1.LimitsServiceServer>(limitsHandlers(new Limits(store)), logger),
          access: limitsAccess,
        },
        {
          definition: oauthconsolev1.OAuthConsoleServiceService,
          implementation: implement<oauthconsolev1.OAuthConsoleServiceServer>(consoleHandlers(consoleCore), logger),
          access: consoleAccess,
        },
      ],
      auth,
      database: conn,
      logger,
      release: () => expiry.stop(),
    });
    logger.info({ port: served.port, kids: keys.map((k) => k.kid) }, 'oauth service started');
    return served;
  } catch (err) {
    await conn.close().catch(() => undefined);
    throw err;
  }
}
