/**
 * An import's body streams for as long as its bytes keep coming (docs/consent.md, Import): it is
 * not cut by the whole-request timeout (ACCORD_REQUEST_TIMEOUT_MS), which every other request
 * keeps, but fails when no byte comes for ACCORD_IMPORT_IDLE_TIMEOUT_MS.
 */
import { connect } from 'node:net';
import { startStack, type Credentials, type Stack } from './harness';

jest.setTimeout(120_000);
const REQUEST_TIMEOUT_MS = 1_500;
const IDLE_TIMEOUT_MS = 1_500;
let stack: Stack;
let creds: Credentials;
let token: string;

beforeAll(async () => {
  stack = await startStack('import-timeouts', {
    env: { ACCORD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), ACCORD_IMPORT_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) },
  });
  creds = await stack.bootstrap({ account: 'import-timeouts', app: 'migration', scopes: ['consent'] });
  token = await stack.token(creds, 'consent');
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends a request's head, then its body chunks with `gapMs` between them (a chunk may be a pause:
 * a number of ms), and resolves with the answer's status and body (or 'closed') and how many
 * chunks were written before the answer came.
 */
function send(head: string, chunks: Array<string | number>, gapMs: number): Promise<{ status: number | 'closed'; body: string; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(stack.ports.gateway, '127.0.0.1');
    let text = '';
    let sent = 0;
    const limit = setTimeout(() => socket.destroy(), 100_000);
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(limit);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 'closed', body: text.slice(text.indexOf('\r\n\r\n') + 4), sent });
    });
    socket.on('connect', async () => {
      socket.write(head);
      for (const c of chunks) {
        if (socket.destroyed || text) return;
        if (typeof c === 'number') await sleep(c);
        else socket.write(c);
        sent++;
        if (gapMs) await sleep(gapMs);
      }
    });
  });
}

const importHead = () =>
  `POST /consent/v0/imports HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\nx-api-key: ${creds.apiKey}\r\n` +
  'content-type: application/x-ndjson\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n';
/** One HTTP chunk of NDJSON lines. */
const chunk = (lines: string[]) => {
  const data = Buffer.from(lines.map((l) => l + '\n').join(''));
  return `${data.length.toString(16)}\r\n${data.toString()}\r\n`;
};
const line = (tag: string, i: number) =>
  JSON.stringify({
    subject: `${tag}-${i}`,
    issuer: 'https://shop.example',
    target: 'https://shop.example/privacy',
    action: true,
    createdAt: new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString(),
    externalId: `${tag}-${i}`,
  });
/** The body of an answer (chunked or not) as JSON. */
const json = (body: string) => JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)) as Record<string, unknown>;

describe('the import and the request timeout', () => {
  // 40 chunks 100 ms apart: at least 4 s, well past the 1.5 s request timeout, and never 1.5 s
  // without a byte (counted in chunks, so a slow machine only makes it last longer)
  test('an import whose body keeps coming for longer than the request timeout is read to the end', async () => {
    const chunks = Array.from({ length: 40 }, (_, c) => chunk(Array.from({ length: 5 }, (_, i) => line('trickle', c * 5 + i))));
    const started = Date.now();
    const r = await send(importHead(), [...chunks, '0\r\n\r\n'], 100);
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS * 2);
    expect(r.status).toBe(202);
    expect(json(r.body)).toMatchObject({ state: 'done', read: 200, stored: 200, refused: 0 });
    const progress = await stack.request('GET', `/consent/v0/imports/${String(json(r.body).id)}`, { token, apiKey: creds.apiKey });
    expect(progress.body).toMatchObject({ state: 'done', stored: 200 });
  });

  test('any other request whose body is still coming after the request timeout is still 408', async () => {
    const head =
      `POST /consent/v0/consents HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\nx-api-key: ${creds.apiKey}\r\n` +
      'content-type: application/json\r\ncontent-length: 1000\r\n\r\n';
    const chunks = Array.from({ length: 200 }, () => ' ');
    const r = await send(head, chunks, 50);
    expect(r.status).toBe(408);
    expect(r.body).toContain('urn:accord:problem:request-timeout');
    expect(r.sent).toBeLessThan(chunks.length);
  });

  test('an import whose body stops coming for longer than the idle timeout fails saying so; what came is stored', async () => {
    const first = chunk(Array.from({ length: 10 }, (_, i) => line('stall', i)));
    // the pause is twice the idle timeout; the rest never goes out (the answer comes first)
    const r = await send(importHead(), [first, IDLE_TIMEOUT_MS * 2, chunk([line('stall', 10)]), '0\r\n\r\n'], 0);
    expect(r.status).toBe(202);
    expect(r.sent).toBeLessThan(3);
    const job = json(r.body);
    expect(job).toMatchObject({
      state: 'failed',
      read: 10,
      stored: 10,
      failure: expect.stringContaining(`no byte of the body arrived for ${IDLE_TIMEOUT_MS} ms`),
    });
    const progress = await stack.request('GET', `/consent/v0/imports/${String(job.id)}`, { token, apiKey: creds.apiKey });
    expect(progress.body).toMatchObject({ state: 'failed', stored: 10, failure: job.failure });
  });
});
