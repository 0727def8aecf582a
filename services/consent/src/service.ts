import { connectMongo, connectNats, ensureEventStream, loadSigningKeys, serveGrpc, serviceAuth, syncIndexes, type Logger } from '@accord/common';
import { consentactivityv1, consentimportv1, consentv1 } from '@accord/proto';
import { dataprocessingRenewalSignals, dataprocessingSpecSource } from './grpc/dataprocessing-client';
import { resolveErasureKey, type Config } from './config';
import { accountErasureKey, INSECURE_DEVELOPMENT_ERASURE_KEY } from './domain/erasure';
import { Consents } from './app/consents';
import { ExpirySweeper } from './events/expiry-sweeper';
import { OutboxRelay } from './events/outbox-relay';
import { AckBatchPublisher } from './events/ack-batches';
import { RenewalAnnouncer } from './events/renewal-announcer';
import { activityAccess, consentAccess, importAccess } from './grpc/access';
import { importHandlers } from './grpc/import-handlers';
import { Imports } from './app/imports';
import { activityHandlers } from './grpc/activity-handlers';
import { consentHandlers } from './grpc/handlers';
import { setOutboxStats } from './metrics';
import { signTreeHead } from './domain/log';
import { headPublisher } from './events/head-publisher';
import { LogSequencer } from './events/log-sequencer';
import { ConsentLog } from './app/log';
import { LogTree } from './app/log-tree';
import { consentStoreOn } from './store/mongo/store';
import { LinkPublisher } from './events/link-publisher';
import { leafQueue } from './app/log-queue';
import { GvlFile } from './app/gvl';

export async function startConsent(config: Config, logger: Logger): Promise<{ port: number; stop(): Promise<void> }> {
  const { keys, generated } = await loadSigningKeys(config.ACCORD_RECEIPT_SIGNING_KEYS);
  if (generated) logger.warn('ACCORD_RECEIPT_SIGNING_KEYS is not set: receipts are signed with an ephemeral key (fine for one process only)');

  const erasure = resolveErasureKey(config, INSECURE_DEVELOPMENT_ERASURE_KEY);
  if (erasure.insecureDefault) logger.warn('ACCORD_ERASURE_KEY is not set: erased subjects are hashed with a public development key (never deploy this)');

  const {
    auth,
    identity,
    tls,
    close: closeAuth,
  } = serviceAuth('consent', config, logger, {
    platform: true,
    // a CreateConsents call stores its events: counted as a REST write of as many is
    limits: {
      config,
      events: (rpc, request) =>
        rpc.endsWith('/CreateConsents')
          ? (request as consentv1.CreateConsentsRequest).events.length
          : // imported lines count against the event quota as they are sent (docs/consent.md, Import)
            rpc.endsWith('/ImportLines')
            ? (request as consentimportv1.ImportLinesRequest).lines.length
            : undefined,
    },
  });
  const conn = await connectMongo(config.MONGO_URL, logger);
  const { store } = consentStoreOn(conn);
  await syncIndexes(conn);
  const logTree = new LogTree(store.log);
  const leaves = leafQueue(store.logQueue, store.links);
  const nc = await connectNats(config.NATS_URL, logger, 'accord-consent', config);
  await ensureEventStream(await nc.jetstreamManager(), config.ACCORD_NATS_PREFIX);
  const relayPublisher = new AckBatchPublisher(nc);
  const relay = new OutboxRelay(store, relayPublisher, {
    prefix: config.ACCORD_NATS_PREFIX,
    leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
    pollMs: config.ACCORD_CONSENT_OUTBOX_POLL_MS,
    publishTimeoutMs: config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS,
    encoding: config.ACCORD_CONSENT_EVENT_ENCODING,
    logger,
  });
  relay.start();
  // lapsed consents announced once per state (consent.expired), from any replica
  const sweeper = new ExpirySweeper(store.expiry, nc.jetstream(), {
    prefix: config.ACCORD_NATS_PREFIX,
    intervalMs: config.ACCORD_CONSENT_EXPIRY_SWEEP_MS,
    leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
    publishTimeoutMs: config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS,
    encoding: config.ACCORD_CONSENT_EVENT_ENCODING,
    logger,
  });
  sweeper.start();
  // material specification changes announced once per state and version (consent.renewal_required), from any replica
  const renewalSignals = dataprocessingRenewalSignals(config.ACCORD_DATAPROCESSING_ADDR, identity, tls);
  const renewals = new RenewalAnnouncer(store.renewals, renewalSignals, nc.jetstream(), {
    prefix: config.ACCORD_NATS_PREFIX,
    intervalMs: config.ACCORD_CONSENT_RENEWAL_SWEEP_MS,
    leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
    publishTimeoutMs: config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS,
    encoding: config.ACCORD_CONSENT_EVENT_ENCODING,
    ratePerSecond: config.ACCORD_CONSENT_RENEWAL_RATE,
    logger,
  });
  renewals.start();
  setOutboxStats({ pending: () => store.outbox.pending() });

  // the consent log: sequenced behind the writes, heads signed with the receipt key
  const sequencer = new LogSequencer(logTree, {
    pollMs: config.ACCORD_CONSENT_LOG_POLL_MS,
    leaseMs: config.ACCORD_CONSENT_LOG_LEASE_MS,
    batchSize: config.ACCORD_CONSENT_LOG_BATCH,
    // consent events and link events (linked identities) get their leaves in one log
    queue: leaves,
    // the events' publication marks go with their log marks (one update of each document)
    published: relay.marks,
    sign: (account, treeSize, rootHash) => signTreeHead({ account, treeSize, rootHash, timestamp: new Date() }, keys[0]!),
    // new heads on the event stream: witnesses and `log.tree_head` webhooks
    onHead: headPublisher(nc.jetstream(), config.ACCORD_NATS_PREFIX, config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS),
    logger,
  });
  sequencer.start();

  const specs = dataprocessingSpecSource(config.ACCORD_DATAPROCESSING_ADDR, logger, config.ACCORD_CONSENT_SPEC_CACHE_MS, identity, tls);
  const consents = new Consents(
    store,
    {
      // stored and applied: publish, and sweep when the first of them lapses (a timer, no command)
      publishStored: (events) => {
        relay.publishStored(events);
        sweeper.sweepWhenDue(events);
      },
    },
    {
      keys,
      specs,
      settings: {
        baseUrl: config.ACCORD_BASE_URL.replace(/\/+$/, ''),
        jurisdiction: config.ACCORD_RECEIPT_JURISDICTION,
        controllerName: config.ACCORD_RECEIPT_CONTROLLER_NAME,
        controllerContact: config.ACCORD_RECEIPT_CONTROLLER_CONTACT,
        language: config.ACCORD_RECEIPT_LANGUAGE,
      },
    },
    logger,
    { nudge: () => sequencer.nudge(), anchor: (accountId, id) => logTree.anchor(accountId, id) },
    erasure.key,
    { publishLeaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS },
  );
  const imports = new Imports(
    store,
    {
      ratePerSecond: config.ACCORD_CONSENT_IMPORT_RATE,
      ...(erasure.key ? { erasureKeyOf: (accountId: string) => accountErasureKey(erasure.key, accountId) } : {}),
    },
    { nudge: () => sequencer.nudge() },
  );
  imports.links = consents.links;
  // linked identities: each stored link on the event stream (`subject.linked` webhooks), through its outbox
  const links = new LinkPublisher(nc.jetstream(), store.links, {
    prefix: config.ACCORD_NATS_PREFIX,
    publishTimeoutMs: config.ACCORD_CONSENT_PUBLISH_TIMEOUT_MS,
    leaseMs: config.ACCORD_CONSENT_OUTBOX_LEASE_MS,
    pollMs: config.ACCORD_CONSENT_OUTBOX_POLL_MS,
    logger,
  });
  consents.links.sink = links;
  consents.links.publishLeaseMs = config.ACCORD_CONSENT_OUTBOX_LEASE_MS;
  links.start();
  const gvl = new GvlFile(config.ACCORD_TCF_GVL, logger);
  consents.tcfGvl = () => gvl.current();

  return serveGrpc(config, {
    services: [
      {
        definition: consentv1.ConsentServiceService,
        implementation: consentHandlers(consents, logger, new ConsentLog(logTree, leaves)),
        access: consentAccess,
      },
      {
        definition: consentactivityv1.ConsentActivityServiceService,
        implementation: activityHandlers(store.events, logger, (accountId, appId) => consents.statistics(accountId, appId)),
        access: activityAccess,
      },
      {
        definition: consentimportv1.ConsentImportServiceService,
        implementation: importHandlers(imports, logger),
        access: importAccess,
      },
    ],
    auth,
    database: conn,
    logger,
    async release() {
      setOutboxStats(undefined);
      await consents.drain();
      await sequencer.stop();
      await sweeper.stop();
      await renewals.stop();
      await relay.stop();
      await links.stop();
      relayPublisher.close();
      specs.close();
      renewalSignals.close();
      closeAuth();
      await nc.drain().catch(() => nc.close());
    },
  });
}
