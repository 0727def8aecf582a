/**
 * What schemathesis does not send: huge and deeply nested JSON, invalid UTF-8, duplicate keys,
 * header floods, slow senders, unsupported media types, undeclared methods. Each gets a clear
 * 4xx problem, and the gateway stays healthy (readyz 200, a normal request still works).
 */
import { connect } from 'node:net';
import { startStack, type Credentials, type HttpResult, type Stack } from '../harness';

const REQUEST_TIMEOUT_MS = 1_500;

/**
 * Sends raw bytes and resolves with the status line and body of the answer (or 'closed'), and
 * how many of the chunks were written before the connection closed.
 */
function raw(port: number, chunks: Array<string | Buffer>, gapMs = 0, limitMs = 10_000): Promise<{ status: number | 'closed'; text: string; sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    const timer = setTimeout(() => socket.destroy(), limitMs);
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 'closed', text, sent });
    });
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (socket.destroyed || text) return;
        socket.write(c);
        sent++;
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

describe('the gateway under hostile input', () => {
  let stack: Stack;
  let creds: Credentials;
  let token: string;
  const auth = () => ({ authorization: `Bearer ${token}`, 'x-api-key': creds.apiKey });
  const problemOf = (r: HttpResult) => ({ status: r.status, type: r.headers.get('content-type')?.split(';')[0] });

  beforeAll(async () => {
    stack = await startStack('robust', { env: { ACCORD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    creds = await stack.bootstrap({ account: 'robust', app: 'web', scopes: ['consent', 'dataprocessing', 'webhooks'] });
    token = await stack.token(creds, 'consent dataprocessing webhooks');
  }, 120_000);
  afterEach(async () => {
    // after every attack the gateway still answers normally
    expect((await stack.request('GET', '/readyz')).status).toBe(200);
    const ok = await stack.request('POST', '/consent/v0/consents', {
      token,
      apiKey: creds.apiKey,
      json: { subject: 's', issuer: 'i', target: 't', action: true },
    });
    expect(ok.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
  }, 120_000);

  it('answers a body over the limit (2 MB of JSON) with 413', async () => {
    const r = await stack.request('POST', '/consent/v0/consents', {
      headers: auth(),
      json: `[${'{"subject":"s","issuer":"i","target":"t"},'.repeat(50_000)}{}]`,
    });
    expect(problemOf(r)).toEqual({ status: 413, type: 'application/problem+json' });
  });

  it('answers JSON nested 200,000 levels deep with 400, not a stack overflow', async () => {
    const r = await stack.request('POST', '/consent/v0/consents', { headers: auth(), json: '['.repeat(200_000) + ']'.repeat(200_000) });
    expect(problemOf(r)).toEqual({ status: 400, type: 'application/problem+json' });
  });

  it('answers objects nested 50,000 levels deep inside a field with 400', async () => {
    const r = await stack.request('POST', '/consent/v0/consents', {
      headers: auth(),
      json: `{"subject":"s","issuer":"i","target":"t","scope":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    });
    expect(problemOf(r)).toEqual({ status: 400, type: 'application/problem+json' });
    expect(r.body.errors).toEqual([{ field: '/scope', message: 'must be string' }]);
  });

  it('refuses a body that is not UTF-8 instead of storing replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"subject":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","issuer":"i","target":"t"}')]);
    const res = await fetch(`${stack.baseUrl}/consent/v0/consents`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown }).errors).toEqual([{ field: '/', message: 'the body is not valid UTF-8' }]);
  });

  it('refuses a form body that is not UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('subject=%C3%28&issuer=i&target='), Buffer.from([0xfe])]);
    const res = await fetch(`${stack.baseUrl}/consent/v0/consents`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(400);
  });

  it('refuses a JSON object with a key twice (the two readings disagree on the action)', async () => {
    const r = await stack.request('POST', '/consent/v0/consents', {
      headers: auth(),
      json: '{"subject":"s","issuer":"i","target":"t","action":true,"action":false}',
    });
    expect(problemOf(r)).toEqual({ status: 400, type: 'application/problem+json' });
    expect(r.body.errors).toEqual([{ field: '/', message: 'the key "action" appears twice in one object' }]);
  });

  it('answers a flood of 5,000 headers with 431 in problem form', async () => {
    const headers = Array.from({ length: 5_000 }, (_, i) => `x-flood-${i}: ${'v'.repeat(20)}\r\n`).join('');
    const r = await raw(stack.ports.gateway, [`GET /healthz HTTP/1.1\r\nhost: x\r\n${headers}\r\n`]);
    expect(r.status).toBe(431);
    expect(r.text).toContain('application/problem+json');
  });

  // The trickle lasts 200 × 50 ms, several times the request timeout: the 408 must cut it short.
  // Counted in chunks, not milliseconds, so that a loaded machine (slower timers on both sides)
  // cannot fail it; a gateway without the timeout would take the whole trickle, or never answer.
  it('disconnects a client that sends its headers a byte at a time (slowloris) with 408 after the request timeout', async () => {
    const head = 'GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ' + 'a'.repeat(200);
    const chunks = [...head].map((c) => c);
    const r = await raw(stack.ports.gateway, chunks, 50, 60_000);
    expect(r.status).toBe(408);
    expect(r.sent).toBeLessThan(chunks.length);
  });

  it('disconnects a client that trickles its body with 408 after the request timeout', async () => {
    const head = `POST /consent/v0/consents HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\nx-api-key: ${creds.apiKey}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`;
    const chunks = [head, ...Array.from({ length: 200 }, () => ' ')];
    const r = await raw(stack.ports.gateway, chunks, 50, 60_000);
    expect(r.status).toBe(408);
    expect(r.sent).toBeLessThan(chunks.length);
  });

  test.each([
    ['text/plain', 'subject=s'],
    ['application/xml', '<consent/>'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['', '{"subject":"s","issuer":"i","target":"t"}'],
  ])('answers a body of type "%s" with 415 naming the accepted types', async (type, body) => {
    const headers: Record<string, string> = { ...auth() };
    if (type) headers['content-type'] = type;
    const res = await fetch(`${stack.baseUrl}/consent/v0/consents`, { method: 'POST', headers, body: type ? body : Buffer.from(body) });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/application\/json or application\/x-www-form-urlencoded/);
  });

  test.each([
    ['TRACE', '/healthz', 'GET, HEAD'],
    ['DELETE', '/openapi.json', 'GET, HEAD'],
    ['PUT', '/consent/v0/consents/0123456789abcdef0123456789abcdef', 'GET, HEAD'],
    ['OPTIONS', '/webhooks/v0', 'GET, POST, HEAD'],
    ['GET', '/oauth/v0/token', 'POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    // raw HTTP: fetch refuses to send TRACE
    const r = await raw(stack.ports.gateway, [`${method} ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`]);
    expect(r.status).toBe(405);
    expect(r.text).toMatch(new RegExp(`\r\nallow: ${allow}\r\n`, 'i'));
  });

  it.each([
    ['/consent/v0/consents/%E0%A4%A', 'id'],
    ['/consent/v0/consents/%zz/receipt', 'id'],
    ['/consent/v0/consents/token/%E0%A4', 'token'],
    ['/dataprocessing/v0/dpgroups/%E0%A4%A', 'group_id'],
    ['/dataprocessing/v0/dpspecs/%C3/texts', 'spec_id'],
    ['/webhooks/v0/%FF', 'id'],
  ])('answers a malformed percent-escape in a path parameter (GET %s) with 400 naming the parameter', async (path, field) => {
    const r = await stack.request('GET', path, { headers: auth() });
    expect(problemOf(r)).toEqual({ status: 400, type: 'application/problem+json' });
    expect(r.body.errors).toEqual([{ field, message: expect.stringMatching(/percent-encoded UTF-8/) }]);
  });

  it('answers an unreadable body on the token endpoint in its own (RFC 6749) form', async () => {
    const r = await stack.request('POST', '/oauth/v0/token', { json: '"AAA' });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: '/: the body is not valid JSON' });
  });
});
