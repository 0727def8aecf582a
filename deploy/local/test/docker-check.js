// Run by docker.test.ts inside deploy/images/podman-docker.sh (a Docker engine on DOCKER_HOST):
// startInfra of the compiled local stack (npm test builds it first) starts MongoDB and NATS
// containers, each is used, then stopped. Prints one JSON line of what it saw.
'use strict';
const { execFileSync } = require('node:child_process');
const { MongoClient } = require('mongodb');
const { connect } = require('nats');
const { startInfra } = require('../dist/infra');

const images = () => execFileSync('docker', ['ps', '--format', '{{.Image}}'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).sort();

(async () => {
  const seen = {};
  const infra = await startInfra({ dataDir: process.argv[2], ephemeral: true, env: { ...process.env, MONGO_URL: '', NATS_URL: '' } });
  try {
    seen.description = infra.description;
    seen.running = images();
    const mongo = await new MongoClient(infra.mongoUrl).connect();
    try {
      await mongo.db().collection('docker').insertOne({ _id: 'x', n: 1 });
      seen.found = await mongo.db().collection('docker').findOne({ _id: 'x' });
    } finally {
      await mongo.close();
    }
    const nc = await connect({ servers: infra.natsUrl });
    try {
      await (await nc.jetstreamManager()).streams.add({ name: 'docker', subjects: ['docker.>'] });
      seen.published = (await nc.jetstream().publish('docker.one', new TextEncoder().encode('hello'))).seq;
    } finally {
      await nc.close();
    }
  } finally {
    await infra.stop();
  }
  seen.runningAfterStop = images();
  console.log(JSON.stringify(seen));
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
