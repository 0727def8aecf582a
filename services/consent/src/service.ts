import { connectMongo, connectNats, ensureEventStream, loadSigningKeys, startGrpcServer, syncIndexes, type Logger, followDatabase } from '@accord/common';
import { consentv1 } from '@accord/proto';
import { dataprocessingSpecLookup } from './clients/dataprocessing';
import type { Config } from './config';
import { Consents } from './consents';
import { OutboxRelay } from './events/outbox-relay';
import { consentHandlers } from './grpc/handlers';
import { defineModels } from './store/models';
import { ConsentRepository } from './store/repository';

export async function startConsent(config: Config, logger: Logger): Promise<{ port: number; stop(): Promise<void> }> {
  const { keys, generated } = await loadSigningKeys(config.ACCORD_RECEIPT_SIGNING_KEYS);
  if (generated) logger.warn('ACCORD_RECEIPT_SIGNING_KEYS is not set: receipts are signed with an ephemeral key (fine for one process only)');

  const conn = await connectMongo(config.MONGO_URL, logger);
  const models = defineModels(conn);
  await syncIndexes(conn);
  const repo = new ConsentRepository(models);

  const nc = await connectNats(config.NATS_URL, logger, 'accord-consent');
  await ensureEventStream(await nc.jetstreamManager(), config.ACCORD_NATS_PREFIX);
  const relay = new OutboxRelay(repo, nc.jetstream(), {
    prefix: config.ACCORD_NATS_PREFIX,
    leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
    pollMs: config.ACCORD_CONSENT_OUTBOX_POLL_MS,
    publishTimeoutMs: config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS,
    logger,
  });
  relay.start();

  const specs = dataprocessingSpecLookup(config.ACCORD_DATAPROCESSING_ADDR, logger);
  const consents = new Consents(
    repo,
    relay,
    {
      keys,
      leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
      lookupSpec: specs.lookup,
      settings: {
        baseUrl: config.ACCORD_BASE_URL.replace(/\/+$/, ''),
        jurisdiction: config.ACCORD_RECEIPT_JURISDICTION,
        controllerName: config.ACCORD_RECEIPT_CONTROLLER_NAME,
        controllerContact: config.ACCORD_RECEIPT_CONTROLLER_CONTACT,
        language: config.ACCORD_RECEIPT_LANGUAGE,
      },
    },
    logger,
  );

  const server = await startGrpcServer({
    port: config.GRPC_PORT,
    services: [{ definition: consentv1.ConsentServiceService, implementation: consentHandlers(consents, logger), name: 'accord.consent.v1.ConsentService' }],
    logger,
  });
  followDatabase(conn, (serving) => server.setServing(serving), logger);

  return {
    port: server.port,
    async stop() {
      await server.shutdown(config.SHUTDOWN_GRACE_MS);
      await consents.drain();
      await relay.stop();
      specs.close();
      await nc.drain().catch(() => nc.close());
      await conn.close();
    },
  };
}
