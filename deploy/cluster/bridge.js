#!/usr/bin/env node
// Joins two stream endpoints across network namespaces: every connection accepted on the first
// is piped to a new connection to the second. An endpoint is `unix:<path>` or `tcp:<host>:<port>`.
//
//   node deploy/cluster/bridge.js unix:/…/apiserver.sock tcp:127.0.0.1:6443   (inside the cluster's namespace)
//   node deploy/cluster/bridge.js tcp:127.0.0.1:38211 unix:/…/apiserver.sock  (on the host)
//
// A Unix socket is a file, so a process in the host's network namespace can connect to one that a
// process in the cluster's namespace listens on: the pair above puts the API server (listening
// inside the namespace only) on the host's loopback, with no interface, route or firewall rule
// added to the host. Prints "listening <endpoint>" once accepting. Plain Node, no dependencies.
'use strict';
const fs = require('node:fs');
const net = require('node:net');

/** `unix:<path>` → {path}; `tcp:<host>:<port>` → {host, port}. */
function parseEndpoint(spec) {
  if (spec.startsWith('unix:') && spec.length > 5) return { path: spec.slice(5) };
  const m = /^tcp:(.+):(\d+)$/.exec(spec);
  if (m) return { host: m[1], port: Number(m[2]) };
  throw new Error(`bad endpoint '${spec}': use unix:<path> or tcp:<host>:<port>`);
}

/** Listens on `from` and pipes each connection to a new connection to `to`; resolves to the server once listening. */
function bridge(from, to) {
  const target = typeof to === 'string' ? parseEndpoint(to) : to;
  const listenOn = typeof from === 'string' ? parseEndpoint(from) : from;
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', close);
    outbound.on('error', (err) => {
      // what the target did (refused, reset…), for whoever reads this bridge's output
      process.stderr.write(`${new Date().toISOString()} ${err.code ?? err.message}\n`);
      close();
    });
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  if (listenOn.path) fs.rmSync(listenOn.path, { force: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenOn.path ? { path: listenOn.path } : { host: listenOn.host, port: listenOn.port }, () => {
      if (listenOn.path) fs.chmodSync(listenOn.path, 0o600);
      resolve(server);
    });
  });
}

module.exports = { bridge, parseEndpoint };

if (require.main === module) {
  const [from, to] = process.argv.slice(2);
  if (!from || !to) {
    process.stderr.write('usage: bridge.js <listen endpoint> <target endpoint>\n');
    process.exit(2);
  }
  bridge(from, to).then(
    (server) => {
      const a = server.address();
      process.stdout.write(`listening ${typeof a === 'string' ? `unix:${a}` : `tcp:${a.address}:${a.port}`}\n`);
      for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.close(() => process.exit(0)));
    },
    (err) => {
      process.stderr.write(`bridge.js: ${err.message}\n`);
      process.exit(1);
    },
  );
}
