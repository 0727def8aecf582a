import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { KeyStore, type Logger } from '@accord/common';
import { createApp } from './app';
import { closeClients, createClients } from './grpc/clients';
import { armRequestDeadline } from './request-deadline';
import type { Config } from './config';

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request line and headers are larger than the limit (64 KiB).'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time.'],
};

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers too large, too slow,
 * malformed) get a problem+json answer like every other error, then the connection closes.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return;
  const [status, reason, detail] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({
    type: `urn:accord:problem:${status === 400 ? 'bad-request' : status === 408 ? 'request-timeout' : 'headers-too-large'}`,
    title: reason,
    status,
    detail,
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** How long a stopping gateway keeps its connections open for clients to leave them (at most half the grace period). */
const DRAIN_MS = 1_000;

/** Starts the gateway's HTTP server. With ACCORD_GATEWAY_PORT=0 a free port is used. */
export async function startGateway(config: Config, logger: Logger): Promise<{ port: number; url: string; stop(): Promise<void> }> {
  if (!config.ACCORD_SERVICE_KEY) logger.warn('ACCORD_SERVICE_KEY is not set: the gateway proves no service identity, and every service refuses its calls');
  const clients = createClients(config, (err) =>
    logger.warn({ err }, 'gRPC TLS: the certificate files could not be read again; the previous ones stay in use'),
  );
  const tokenKeys = new KeyStore(async () => (await clients.oauth.getJwks({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS, logger);
  const receiptKeys = new KeyStore(async () => (await clients.consent.getReceiptKeys({})).jwks?.keys ?? [], config.ACCORD_JWKS_CACHE_MS, logger);
  const baseUrl = config.ACCORD_BASE_URL.replace(/\/+$/, '');
  const app = createApp({ config, logger, clients, tokenKeys, receiptKeys, baseUrl });

  // Once stopping, every answer says `Connection: close`, so that a client with a keep-alive
  // connection here leaves it after its answer instead of sending its next request into a
  // connection that is being closed (an error a POST cannot safely retry).
  let draining = false;
  const unanswered = new Set<ServerResponse>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    armRequestDeadline(req, res, config.ACCORD_REQUEST_TIMEOUT_MS);
    if (draining) res.setHeader('connection', 'close');
    else {
      unanswered.add(res);
      res.once('close', () => unanswered.delete(res));
    }
    app(req, res);
  };
  // 64 KiB of request line and headers: the longest query the document allows (two 2048-character
  // parameters of 4-byte UTF-8, percent-encoded) fits; Node's default of 16 KiB refused it with 431.
  const server = createServer(
    // the headers timeout is enforced on this interval, so it must be well below the timeout itself
    { maxHeaderSize: 64 * 1024, connectionsCheckingInterval: Math.min(1_000, config.ACCORD_REQUEST_TIMEOUT_MS / 2) },
    handle,
  ).listen(config.ACCORD_GATEWAY_PORT, config.ACCORD_GATEWAY_HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  // The whole request's deadline is the gateway's, per request (request-deadline.ts): the import
  // route trades it for an idle timeout, so that a body of millions of lines is not cut at 30 s.
  // The headers keep Node's deadline.
  server.requestTimeout = 0;
  server.headersTimeout = config.ACCORD_REQUEST_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, 'gateway listening');

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      draining = true;
      for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
      // Clients keeping connections open get a moment to send on them and be told to leave
      // (a busy connection closes after its next answer); what is still idle then is closed.
      const open = await new Promise<number>((resolve) => server.getConnections((_err, n) => resolve(n ?? 0)));
      if (open > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_MS, config.SHUTDOWN_GRACE_MS / 2)));
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
