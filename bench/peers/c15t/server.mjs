/**
 * The c15t peer of `npm run bench`: `@c15t/backend` as its self-hosting guide embeds it — a
 * Kysely instance on node-postgres, `kyselyAdapter`, `c15tInstance` — served by Node's HTTP
 * server through the Fetch-style handler the guide mounts in every framework, in a process of
 * its own like each Accord service. The tables come from the package's own migrator (what
 * `npx @c15t/cli migrate` runs), so nothing is fetched at run time.
 *
 * Env: PGHOST (the socket directory), PGDATABASE, PGUSER. Prints `c15t listening on <port>`.
 *
 * Plain JavaScript beside its own package.json and lock file: the peer is installed apart from
 * Accord (`npm ci --prefix bench/peers/c15t`, which `provision.js bench` runs only when peers are
 * wanted), so Accord's own install and images carry none of its packages.
 */
import { createServer } from 'node:http';
import { c15tInstance } from '@c15t/backend';
import { kyselyAdapter } from '@c15t/backend/db/adapters/kysely';
import { migrator } from '@c15t/backend/db/migrator';
import { DB } from '@c15t/backend/db/schema';
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from 'pg';

/** @param {import('node:http').IncomingMessage} req */
async function bodyOf(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

async function main() {
  // node-postgres reads PGHOST, PGDATABASE and PGUSER; its default pool (10 connections)
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool() }) });
  const adapter = kyselyAdapter({ db, provider: 'postgresql' });
  const migration = await migrator({ db: DB.client(adapter), schema: 'latest' });
  if (!('execute' in migration)) throw new Error('the Kysely adapter returned no migration to run');
  await migration.execute();

  const c15t = c15tInstance({
    appName: 'accord-bench',
    basePath: '/',
    adapter,
    trustedOrigins: ['localhost'],
    // c15t's own logger at `error`: a request logs nothing, as Accord's stack at LOG_LEVEL=warn
    logger: { level: 'error' },
  });

  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
      const method = req.method ?? 'GET';
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body && method !== 'GET' && method !== 'HEAD' ? { body: body.toString() } : {}),
      });
      const response = await c15t.handler(request);
      const out = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(out);
    })().catch((err) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(`c15t listening on ${server.address().port}`));
  const stop = () => server.close(() => void db.destroy().then(() => process.exit(0)));
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
