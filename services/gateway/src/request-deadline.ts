import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The whole-request deadline (ACCORD_REQUEST_TIMEOUT_MS), kept per request by the gateway instead
 * of Node's server-wide `requestTimeout`, so that one route may give it up: the import
 * (POST /consent/v0/imports) streams a body of millions of lines for as long as its bytes keep
 * coming, under an idle timeout of its own (routes/consent-imports.ts). Every other request whose
 * body is not in when the deadline passes is answered 408 problem+json and its connection closed,
 * as Node's requestTimeout did (slow senders cannot hold connections open). The headers have
 * their own deadline (the server's headersTimeout), checked before a request reaches here.
 */
const deadlines = new WeakMap<IncomingMessage, NodeJS.Timeout>();

const BODY = JSON.stringify({
  type: 'urn:accord:problem:request-timeout',
  title: 'Request Timeout',
  status: 408,
  detail: 'The request was not received in time.',
});

/** Arms the deadline of a request, `ms` from now (its headers have just arrived). */
export function armRequestDeadline(req: IncomingMessage, res: ServerResponse, ms: number): void {
  const timer = setTimeout(() => {
    deadlines.delete(req);
    if (req.complete || req.socket.destroyed) return;
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    // answered, then the connection closes (its body is never read to the end)
    res.writeHead(408, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(BODY), connection: 'close' });
    res.end(BODY);
  }, ms);
  timer.unref();
  deadlines.set(req, timer);
  // the body is in (read by its route, or dumped by Node after the answer)
  req.once('end', () => releaseRequestDeadline(req));
}

/** Gives up the whole-request deadline of a request (its route bounds it otherwise). */
export function releaseRequestDeadline(req: IncomingMessage): void {
  const timer = deadlines.get(req);
  if (timer) clearTimeout(timer);
  deadlines.delete(req);
}
