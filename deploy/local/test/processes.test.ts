import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../src/processes';

const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';

describe('freePort', () => {
  test('hands out free loopback ports below the range the kernel gives outgoing connections', async () => {
    // Linux's default where /proc does not say (the range the kernel gives outgoing connections)
    const range = existsSync(RANGE_FILE) ? readFileSync(RANGE_FILE, 'utf8') : '32768 60999';
    const [low, high] = range.trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port >= low! && port <= high!).toBe(false);
      // free: something can listen on it now
      await new Promise<void>((resolve, reject) => {
        const srv = createServer().once('error', reject);
        srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
      });
    }
  });
});
