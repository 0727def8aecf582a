/**
 * The gateway's stop on a keep-alive connection: a request that arrives while it stops is still
 * answered, with `Connection: close`, so the client leaves the connection instead of sending its
 * next request into one that is being closed (in Kubernetes: a rolling update of the gateway
 * under load failed such requests with "other side closed"; deploy/cluster/test/chart.test.ts).
 * No downstream service is needed: /healthz answers from the gateway alone.
 */
import { request, Agent } from 'node:http';
import { createLogger, loadConfig } from '@accord/common';
import { freePort, generateSecrets, pickServicePorts, stackEnv } from '@accord/local-stack';
import { configShape, startGateway } from '@accord/gateway';

function get(port: number, agent: Agent): Promise<{ status: number; connection: string | undefined; socketReused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socketReused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a request sent on a kept-alive connection while the gateway stops is answered, with Connection: close, and stop completes', async () => {
  const ports = await pickServicePorts(await freePort());
  const env = stackEnv({
    mongoUrl: 'mongodb://127.0.0.1:1/none',
    natsUrl: 'nats://127.0.0.1:1',
    ports,
    secrets: generateSecrets(),
    extra: { SHUTDOWN_GRACE_MS: '4000' },
  });
  const gateway = await startGateway(loadConfig(configShape, env), createLogger('gateway', 'silent'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await get(gateway.port, agent);
    expect(first).toEqual({ status: 200, connection: 'keep-alive', socketReused: false });

    const stopped = gateway.stop();
    const during = await get(gateway.port, agent);
    expect(during).toEqual({ status: 200, connection: 'close', socketReused: true });
    await stopped;
    await expect(get(gateway.port, agent)).rejects.toThrow(/ECONNREFUSED/);
  } finally {
    agent.destroy();
  }
});
