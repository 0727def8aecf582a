// The local database's CPU per update (docs/benchmarks.md, "The local database's indexes"): the
// CPU seconds the java process spends on the outbox's and the log sequencer's updateMany of
// {_id: {$in: [k ids]}} and on updates by _id, over events with the consent service's indexes.
//   usage: node deploy/local/test/update-cpu.mjs <mongo-java-server build dir> [docs=100000] [batches=100] [k=500]
// (the build dir: $ACCORD_TOOLS_DIR/mongo-java-server, as install-mongo-java-server.sh makes it). Linux (/proc) only.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
const require = createRequire(import.meta.url);
const { MongoClient } = require('mongodb');
const [dir = `${process.env.ACCORD_TOOLS_DIR ?? '.accord/tools'}/mongo-java-server`, nDocs = '100000', nBatches = '100', kStr = '500'] = process.argv.slice(2);
const N = Number(nDocs),
  B = Number(nBatches),
  K = Number(kStr);
const port = 27000 + Math.floor(Math.random() * 1000);
const java = spawn('java', ['-XX:+UseSerialGC', '-cp', `${dir}/accord-local-mongo-1.jar:${dir}/lib/*`, 'accord.local.LocalMongo', '--port', String(port)], {
  stdio: 'ignore',
});
const cpu = () => {
  const f = readFileSync(`/proc/${java.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
for (let i = 0; i < 200; i++) {
  const ok = await new Promise((r) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      r(true);
    });
    s.on('error', () => r(false));
  });
  if (ok) break;
  await new Promise((r) => setTimeout(r, 100));
}
const client = await new MongoClient(`mongodb://127.0.0.1:${port}`).connect();
const ev = client.db('b').collection('events');
await ev.insertOne({ _id: 'x' });
await ev.createIndex({ accountId: 1, subject: 1, issuer: 1, target: 1, _id: -1 }, { name: 'search' });
await ev.createIndex({ accountId: 1, subject: 1, issuer: 1, target: 1, scope: 1, _id: -1 }, { name: 'search_scope' });
await ev.createIndex({ accountId: 1, token: 1, _id: -1 }, { name: 'token' });
await ev.createIndex({ accountId: 1, appId: 1, _id: -1 }, { name: 'app_latest' });
await ev.createIndex({ accountId: 1, _id: 1 }, { name: 'export' });
await ev.createIndex({ pub: 1 }, { name: 'unpublished', sparse: true });
await ev.createIndex({ logq: 1 }, { name: 'log_pending', sparse: true });
const id = (i) => `${String(10_000_000 + i).padStart(10, '0')}${String(i % 1000).padStart(6, '0')}`;
for (let i = 0; i < N; i += 5000)
  await ev.insertMany(
    Array.from({ length: Math.min(5000, N - i) }, (_, j) => ({
      _id: id(i + j),
      accountId: `a${(i + j) % 7}`,
      subject: `s${(i + j) % 1013}`,
      issuer: 'i1',
      target: `t${(i + j) % 3}`,
      scope: 'email',
      appId: `app${(i + j) % 5}`,
      token: `tok${(i + j) % 97}`,
      action: true,
      pub: new Date(1_700_000_000_000 + i),
      logq: `a${(i + j) % 7}`,
      claim: 'c0',
    })),
  );
const phase = async (name, f) => {
  const c0 = cpu(),
    t0 = Date.now();
  const r = await f();
  console.log(`${name}: ${(cpu() - c0).toFixed(2)} s CPU, ${((Date.now() - t0) / 1000).toFixed(2)} s wall`, r ?? '');
};
const batch = (b) => Array.from({ length: K }, (_, j) => id((b * K + j * 7919) % N));
let m = 0;
await phase(`updateMany {_id:{$in:${K}}} $set claim (no index key) x${B}`, async () => {
  for (let b = 0; b < B; b++) m += (await ev.updateMany({ _id: { $in: batch(b) } }, { $set: { claim: `c${b + 1}` } })).modifiedCount;
  return m;
});
m = 0;
await phase(`updateMany {_id:{$in:${K}}} $unset pub,claim,part (sparse key dropped) x${B}`, async () => {
  for (let b = 0; b < B; b++) m += (await ev.updateMany({ _id: { $in: batch(b) } }, { $unset: { pub: '', claim: '', part: '' } })).modifiedCount;
  return m;
});
m = 0;
await ev.updateMany({}, { $set: { pub: new Date(1_700_000_000_000) } });
await phase(`updateMany {_id:{$in:${K}}, pub:{$exists:true}} $set pub x${B}`, async () => {
  for (let b = 0; b < B; b++)
    m += (await ev.updateMany({ _id: { $in: batch(b) }, pub: { $exists: true } }, { $set: { pub: new Date(1_700_000_001_000 + b) } })).modifiedCount;
  return m;
});
m = 0;
await phase(`updateOne by _id $set claim (no index key) x${B * 50}`, async () => {
  for (let i = 0; i < B * 50; i++) m += (await ev.updateOne({ _id: id((i * 104729) % N) }, { $set: { claim: `d${i}` } })).modifiedCount;
  return m;
});
await client.close();
java.kill();
