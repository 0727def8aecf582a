/**
 * Database commands counted by the local server itself (mongo-java-server started with
 * `--count-commands`, ACCORD_LOCAL_MONGO_COUNT_COMMANDS=1: deploy/local/mongo-java-server's
 * CountingBackend), read with its `accordCommandCounts` command. The stack talks to the server
 * directly: the counting proxy (mongo-proxy.ts) is one more hop for every round trip, on the
 * bench's own event loop beside its load generator, which c15t's database never had (it cost
 * 0.03–0.05 ms of the bench's CPU per request: docs/benchmarks.md, "Counting commands"); it stays
 * for servers that cannot count (MONGO_URL, mongod), and only the proxy counts bytes.
 */
import { MongoClient } from 'mongodb';
import { MongoCommandCounter, type CommandCount, type CommandCounter } from './mongo-proxy';

/** What startInfra needs to start the local server counting (its other servers ignore it). */
export const COUNTING_ENV = { ACCORD_LOCAL_MONGO_COUNT_COMMANDS: '1' } as const;

/**
 * The database at `mongoUrl` with its commands counted: by the server when it counts (started
 * with COUNTING_ENV), the URL unchanged; else by a proxy in front of it, the URL the proxy's.
 */
export async function countedDatabase(mongoUrl: string): Promise<{ counter: CommandCounter; mongoUrl: string }> {
  const server = await ServerCommandCounter.connect(mongoUrl);
  if (server) return { counter: server, mongoUrl };
  const upstream = new URL(mongoUrl);
  const proxy = new MongoCommandCounter({ host: upstream.hostname, port: Number(upstream.port) });
  return { counter: proxy, mongoUrl: await proxy.start(mongoUrl) };
}

export class ServerCommandCounter implements CommandCounter {
  private constructor(private readonly client: MongoClient) {}

  /** The server's counter, or undefined when the server at `mongoUrl` does not count (not ours, or started without the flag). */
  static async connect(mongoUrl: string): Promise<ServerCommandCounter | undefined> {
    const client = new MongoClient(mongoUrl, { maxPoolSize: 1 });
    try {
      await client.db('admin').command({ accordCommandCounts: 1 });
      return new ServerCommandCounter(client);
    } catch {
      await client.close();
      return undefined;
    }
  }

  async take(): Promise<CommandCount> {
    const answer = await this.client.db('admin').command({ accordCommandCounts: 1 });
    const work = new Map(Object.entries(answer.work as Record<string, number>).map(([k, v]) => [k, Number(v)]));
    const waitMs = new Map(Object.entries(answer.serverMs as Record<string, number>).map(([k, v]) => [k, Number(v)]));
    let workTotal = 0;
    for (const n of work.values()) workTotal += n;
    return { work, workTotal, monitoring: Number(answer.monitoring), waitMs };
  }

  async stop(): Promise<void> {
    await this.client.close();
  }
}
