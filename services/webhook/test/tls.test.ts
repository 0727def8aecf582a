import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import { AddressPolicy } from '../src/domain/address-policy';
import { SafeSender, type Resolver } from '../src/http/sender';

// HTTPS receivers with certificates from a CA of the test's own, reached by a name that only the
// test's resolver knows: what the sender verifies is the URL's host name, while it connects to
// the address it vetted.
const resolve: Resolver = async (name) => {
  if (name !== 'hooks.test' && name !== 'other.test') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};
const policy = new AddressPolicy(['127.0.0.0/8']);

let ca: { private: string; cert: string };
let server: Server;
let port: number;
const seen: Array<{ sni: string | false | null; body: string; host?: string }> = [];

async function leafFor(name: string) {
  return generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: name }] },
    ],
  });
}

beforeAll(async () => {
  ca = await generate([{ name: 'commonName', value: 'Accord test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await leafFor('hooks.test');
  server = createServer({ key: leaf.private, cert: leaf.cert }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ sni: (req.socket as TLSSocket).servername, body, host: req.headers.host });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => (seen.length = 0));

describe('HTTPS deliveries', () => {
  it('deliver to a receiver whose certificate chains to a trusted CA and names the URL host, sending that name as SNI', async () => {
    const sender = new SafeSender({ policy, timeoutMs: 5000, resolve, extraCa: [ca.cert] });
    try {
      const r = await sender.post(`https://hooks.test:${port}/in`, {}, '{"type":"ping"}');
      expect(r).toMatchObject({ statusCode: 204, error: '' });
      expect(seen).toEqual([{ sni: 'hooks.test', body: '{"type":"ping"}', host: `hooks.test:${port}` }]);
    } finally {
      sender.close();
    }
  });

  it('refuse a certificate from a CA the sender does not trust, and send nothing', async () => {
    const sender = new SafeSender({ policy, timeoutMs: 5000, resolve });
    try {
      const r = await sender.post(`https://hooks.test:${port}/in`, {}, '{}');
      expect(r.statusCode).toBe(0);
      expect(r.error).toMatch(/certificate/i);
      expect(seen).toEqual([]);
    } finally {
      sender.close();
    }
  });

  it('refuse a trusted certificate that is for another host name', async () => {
    const sender = new SafeSender({ policy, timeoutMs: 5000, resolve, extraCa: [ca.cert] });
    try {
      const r = await sender.post(`https://other.test:${port}/in`, {}, '{}');
      expect(r.statusCode).toBe(0);
      expect(r.error).toMatch(/does not match certificate's altnames/);
      expect(seen).toEqual([]);
    } finally {
      sender.close();
    }
  });
});
