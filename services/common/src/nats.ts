import { connect, type NatsConnection, type TlsOptions } from 'nats';
import type { Logger } from './logger';

/** What connectNats reads of TLS (natsEnv). */
export interface NatsTlsConfig {
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
}

/** nats.js' TLS options from the config: undefined (plaintext unless the URL says tls://) when none is set. */
export function natsTlsOptions(config: NatsTlsConfig): TlsOptions | undefined {
  const { NATS_TLS_CA_FILE: caFile, NATS_TLS_CERT_FILE: certFile, NATS_TLS_KEY_FILE: keyFile } = config;
  if (!caFile && !certFile && !keyFile) return undefined;
  if (!certFile !== !keyFile) throw new Error('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together');
  return { ...(caFile ? { caFile } : {}), ...(certFile ? { certFile, keyFile } : {}) };
}

/**
 * Connects to NATS, waiting for the first connection and reconnecting forever afterwards;
 * connection state changes are logged.
 */
export async function connectNats(url: string, logger: Logger, name: string, tlsConfig: NatsTlsConfig = {}): Promise<NatsConnection> {
  const tls = natsTlsOptions(tlsConfig);
  const nc = await connect({
    servers: url.split(','),
    ...(tls ? { tls } : {}),
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
