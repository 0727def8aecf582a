import type { AddressInfo } from 'node:net';
import type { Logger } from '@accord/common';
import { createApp } from './app';
import { closeClients, createClients } from './clients';
import type { Config } from './config';
import { KeyStore } from './keystore';

/** Starts the gateway's HTTP server. With ACCORD_GATEWAY_PORT=0 a free port is used. */
export async function startGateway(config: Config, logger: Logger): Promise<{ port: number; url: string; stop(): Promise<void> }> {
  const clients = createClients(config);
  const tokenKeys = new KeyStore(async () => (await clients.oauth.getJwks({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS, logger);
  const receiptKeys = new KeyStore(async () => (await clients.consent.getReceiptKeys({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS, logger);
  const baseUrl = config.ACCORD_BASE_URL.replace(/\/+$/, '');
  const app = createApp({ config, logger, clients, tokenKeys, receiptKeys, baseUrl });

  const server = app.listen(config.ACCORD_GATEWAY_PORT, config.ACCORD_GATEWAY_HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'gateway listening');

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      // Stop accepting, let in-flight requests finish (bounded by the grace period), then close clients.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, config.SHUTDOWN_GRACE_MS);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      closeClients(clients);
    },
  };
}
