/**
 * The ceiling of `npm run bench`: the least a server can do for each measured operation, on the
 * same database server as Accord (another database), in its own process like each service.
 *   POST /insert  one insertOne of the JSON body           (the ceiling of POST /consents)
 *   POST /insertMany  one insertMany of the JSON array      (the ceiling of POST /consents with an array)
 *   POST /token   one findOne of a client + one ES256 JWT   (the ceiling of the token endpoint)
 *   GET /current/:n  one findOne by _id of 1 of 1000 stored states, as JSON
 *                                                          (the ceiling of a current search with scope)
 * Prints `ceiling listening on <port>` when ready. Env: MONGO_URL (database in the path).
 */
import express from 'express';
import { generateKeyPair, SignJWT } from 'jose';
import { MongoClient } from 'mongodb';

async function main(): Promise<void> {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is required');
  const client = await new MongoClient(url).connect();
  const db = client.db();
  const events = db.collection('events');
  const clients = db.collection<{ _id: string; secretHash: string; accountId: string; scopes: string[] }>('clients');
  await clients.updateOne({ _id: 'cl_ceiling' }, { $set: { secretHash: 'x', accountId: 'acc', scopes: ['consent'] } }, { upsert: true });
  const { privateKey } = await generateKeyPair('ES256');
  const states = db.collection<{ _id: string }>('current');
  const STATES = 1000;
  await states.deleteMany({});
  await states.insertMany(
    Array.from({ length: STATES }, (_, i) => ({ _id: `state-${i}`, subject: `subject-${i}`, scope: 'email', action: true, updatedAt: new Date() })),
  );

  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/insert', async (req, res) => {
    const r = await events.insertOne({ ...(req.body as object), createdAt: new Date() });
    res.status(201).json({ id: r.insertedId });
  });
  app.post('/insertMany', async (req, res) => {
    const now = new Date();
    const r = await events.insertMany((req.body as object[]).map((e) => ({ ...e, createdAt: now })));
    res.status(201).json({ ids: Object.values(r.insertedIds) });
  });
  app.post('/token', async (_req, res) => {
    const c = await clients.findOne({ _id: 'cl_ceiling' });
    if (!c) return void res.status(401).json({ error: 'invalid_client' });
    const jwt = await new SignJWT({ scope: c.scopes.join(' '), acc: c.accountId })
      .setProtectedHeader({ alg: 'ES256', kid: 'ceiling' })
      .setIssuedAt()
      .setExpirationTime('15m')
      .setSubject(c._id)
      .sign(privateKey);
    res.json({ access_token: jwt, token_type: 'Bearer', expires_in: 900 });
  });
  app.get('/current/:n', async (req, res) => {
    const state = await states.findOne({ _id: `state-${Number(req.params.n) % STATES}` });
    if (!state) return void res.status(404).end();
    res.json([state]);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(`ceiling listening on ${(server.address() as { port: number }).port}`);
  });
  const stop = () => server.close(() => void client.close().then(() => process.exit(0)));
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
