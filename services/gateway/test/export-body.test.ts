import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGunzip } from 'node:zlib';
import express from 'express';
import { ExportBody } from '../src/routes/consent';

const lines = (page: number) => Array.from({ length: 1000 }, (_, i) => `{"page":${page},"i":${i}}\n`).join('');

describe('the body of an export', () => {
  test('gzip is flushed after every page: a client decodes the whole first page while the second is not yet read', async () => {
    let releaseSecond!: () => void;
    const second = new Promise<void>((r) => (releaseSecond = r));
    const app = express();
    app.get('/x', async (req, res) => {
      res.status(200).setHeader('Content-Type', 'application/x-ndjson');
      const out = new ExportBody(req, res);
      await out.start();
      await out.write(lines(1));
      await second; // a slow next page
      await out.write(lines(2));
      out.end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const text = await new Promise<{ encoding?: string; firstPage: string; all: string }>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${port}/x`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
            const gunzip = createGunzip();
            let decoded = '';
            let firstPage = '';
            gunzip.on('data', (d: Buffer) => {
              decoded += d.toString('utf8');
              // the whole first page arrives before the server reads the second
              if (!firstPage && decoded.split('\n').length - 1 === 1000) {
                firstPage = decoded;
                releaseSecond();
              }
            });
            gunzip.on('end', () => resolve({ encoding: res.headers['content-encoding'], firstPage, all: decoded }));
            gunzip.on('error', reject);
            res.pipe(gunzip);
          })
          .on('error', reject);
      });
      expect(text.encoding).toBe('gzip');
      expect(text.firstPage).toBe(lines(1));
      expect(text.all).toBe(lines(1) + lines(2));
    } finally {
      releaseSecond();
      await new Promise((r) => server.close(r));
    }
  });

  test('without gzip in Accept-Encoding the body is sent as is', async () => {
    const app = express();
    app.get('/x', async (req, res) => {
      const out = new ExportBody(req, res);
      await out.start();
      await out.write('a\n');
      out.end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, { headers: { 'accept-encoding': 'identity' } });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe('a\n');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
