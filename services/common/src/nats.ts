import { connect, type NatsConnection } from 'nats';
import type { Logger } from './logger';

/**
 * Connects to NATS, waiting for the first connection and reconnecting forever afterwards;
 * connection state changes are logged.
 */
export async function connectNats(url: string, logger: Logger, name: string): Promise<NatsConnection> {
  const nc = await connect({
    servers: url.split(','),
    name,
    waitOnFirstConnect: true,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    timeout: 10_000,
    // No Error object (stack capture) per request: with one JetStream publish per event it was
    // ~10% of the consent service's CPU on arrays; our logs carry the context instead.
    noAsyncTraces: true,
  });
  logger.info({ server: nc.getServer() }, 'connected to NATS');
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
        logger.warn({ type: s.type, data: String(s.data) }, 'NATS connection status');
    }
  })();
  return nc;
}
