import { connectMongo, connectNats, implement, serveGrpc, serviceAuth, syncIndexes, type Logger } from '@accord/common';
import { webhookv1 } from '@accord/proto';
import { leaseMs, type Config } from './config';
import { SafeSender, type Resolver } from './http/sender';
import { DeliveryWorker } from './events/delivery-worker';
import { Registrations } from './app/registrations';
import { Webhooks } from './app/webhooks';
import { AddressPolicy } from './domain/address-policy';
import { startEventConsumer } from './events/consumer';
import { webhookAccess } from './grpc/access';
import { webhookHandlers } from './grpc/handlers';
import { setQueueDepth } from './metrics';
import { webhookStoreOn } from './store/mongo/store';

export interface WebhookTestHooks {
  /** Replaces DNS resolution of receiver host names (tests of the SSRF guard). */
  resolve?: Resolver;
}

/**
 * The webhook service: registration over gRPC, a durable JetStream consumer that turns each
 * event into one delivery record per subscribed webhook (stored before the message is acked),
 * and delivery workers that send signed attempts under a lease with retries.
 */
export async function startWebhook(config: Config, logger: Logger, hooks: WebhookTestHooks = {}): Promise<{ port: number; stop(): Promise<void> }> {
  const lease = leaseMs(config);
  const policy = new AddressPolicy(config.ACCORD_WEBHOOK_ALLOW_CIDRS);
  const conn = await connectMongo(config.MONGO_URL, logger);
  const { store } = webhookStoreOn(conn);
  await syncIndexes(conn);
  const nc = await connectNats(config.NATS_URL, logger, 'accord-webhook', config);
  // Every replica caches subscriber lists; a change made through one replica reaches the others
  // on this subject (core NATS: a replica that misses it keeps a list SUBSCRIBER_CACHE_MS at most).
  const changes = `${config.ACCORD_NATS_PREFIX}.internal.webhooks.changed`;
  const webhooks = new Registrations(store.webhooks, (accountId, appId) => nc.publish(changes, JSON.stringify({ accountId, appId })));
  const changeSub = nc.subscribe(changes, {
    callback: (err, msg) => {
      if (err) return;
      try {
        const { accountId, appId } = JSON.parse(msg.string()) as { accountId?: unknown; appId?: unknown };
        if (typeof accountId === 'string' && typeof appId === 'string') webhooks.forget(accountId, appId);
      } catch {
        logger.warn({ subject: msg.subject }, 'unreadable webhook change notice ignored');
      }
    },
  });
  const deliveries = store.deliveries;
  // Queue entries are the deliveries waiting (due now or for a retry); removed when finished.
  setQueueDepth(() => deliveries.queued());

  const sender = new SafeSender({ policy, timeoutMs: config.ACCORD_WEBHOOK_TIMEOUT_MS, resolve: hooks.resolve });
  const worker = new DeliveryWorker({
    webhooks,
    deliveries,
    sender,
    retry: { schedule: config.ACCORD_WEBHOOK_RETRY_SCHEDULE_MS, jitter: config.ACCORD_WEBHOOK_JITTER },
    leaseMs: lease,
    pollMs: config.ACCORD_WEBHOOK_POLL_MS,
    concurrency: config.ACCORD_WEBHOOK_CONCURRENCY,
    logger,
  });

  const app = new Webhooks({
    webhooks,
    deliveries,
    policy,
    secretGraceMs: config.ACCORD_WEBHOOK_SECRET_GRACE_MS,
    onQueued: (ids) => worker.offer(ids),
  });

  let consumer: { stop(): Promise<void> } | undefined;
  const { auth, close: closeAuth } = serviceAuth('webhook', config, logger, { platform: true, limits: { config } });
  const served = await serveGrpc(config, {
    services: [
      {
        definition: webhookv1.WebhookServiceService,
        implementation: implement<webhookv1.WebhookServiceServer>(webhookHandlers(app), logger),
        access: webhookAccess,
      },
    ],
    auth,
    database: conn,
    logger,
    async release() {
      closeAuth();
      setQueueDepth(undefined);
      await consumer?.stop();
      changeSub.unsubscribe();
      await worker.stop();
      sender.close();
      await nc.drain().catch(() => nc.close());
    },
  });
  worker.start();
  try {
    consumer = await startEventConsumer({ nc, prefix: config.ACCORD_NATS_PREFIX, logger, handle: (event) => app.fanOut(event) });
  } catch (err) {
    await worker.stop();
    await served.server.shutdown(0);
    await nc.close();
    await conn.close();
    throw err;
  }
  return served;
}
