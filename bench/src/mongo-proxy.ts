import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** Commands of the driver's own connection and server monitoring: not work a request causes. */
const MONITORING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'buildInfo', 'buildinfo', 'endSessions', 'saslStart', 'saslContinue', 'getLastError']);

export interface CommandCount {
  /** Commands that do work (reads and writes), by `<command> <collection>`. */
  work: Map<string, number>;
  workTotal: number;
  monitoring: number;
  /**
   * Milliseconds per work command, summed by `<command> <collection>`: the server's time answering
   * it (ServerCommandCounter), or from the command to its reply, queueing included (the proxy).
   */
  waitMs: Map<string, number>;
  /** Bytes sent to the database and received from it (every message, monitoring included; the proxy only). */
  bytesSent?: number;
  bytesReceived?: number;
}

/** Counts the database commands the whole stack sends; `take` gives those since the last `take`. */
export interface CommandCounter {
  take(): Promise<CommandCount>;
  stop(): Promise<void>;
}

/**
 * A TCP proxy in front of the MongoDB-wire server that counts the commands crossing it (OP_MSG
 * and legacy OP_QUERY), as the driver's command monitoring would in every process at once: the
 * whole stack talks to the database through it, so a window of time gives the exact commands
 * that window caused, across all services. Bytes pass through unchanged.
 */
export class MongoCommandCounter implements CommandCounter {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private work = new Map<string, number>();
  private workTotal = 0;
  private monitoring = 0;
  private waitMs = new Map<string, number>();
  private bytesSent = 0;
  private bytesReceived = 0;
  /** Work commands awaiting their reply: request id → (key, sent at). */
  private readonly sent = new Map<number, { key: string; at: number }>();

  constructor(private readonly upstream: { host: string; port: number }) {}

  /** Listens on a free loopback port; resolves with a MongoDB URL through the proxy (same database path). */
  async start(mongoUrl: string): Promise<string> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    const u = new URL(mongoUrl);
    u.host = `127.0.0.1:${port}`;
    return u.toString();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The counts since the last reset, and resets them. */
  take(): Promise<CommandCount> {
    const out = {
      work: this.work,
      workTotal: this.workTotal,
      monitoring: this.monitoring,
      waitMs: this.waitMs,
      bytesSent: this.bytesSent,
      bytesReceived: this.bytesReceived,
    };
    this.bytesSent = 0;
    this.bytesReceived = 0;
    this.work = new Map();
    this.waitMs = new Map();
    this.workTotal = 0;
    this.monitoring = 0;
    return Promise.resolve(out);
  }

  private accept(client: Socket): void {
    const server = createConnection(this.upstream);
    this.sockets.add(client).add(server);
    const close = () => {
      client.destroy();
      server.destroy();
      this.sockets.delete(client);
      this.sockets.delete(server);
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
    server.pipe(client);
    let replies: Buffer = Buffer.alloc(0);
    server.on('data', (chunk: Buffer) => {
      this.bytesReceived += chunk.length;
      replies = replies.length ? Buffer.concat([replies, chunk]) : chunk;
      while (replies.length >= 16) {
        const len = replies.readInt32LE(0);
        if (replies.length < len) break;
        const to = this.sent.get(replies.readInt32LE(8));
        if (to) {
          this.sent.delete(replies.readInt32LE(8));
          this.waitMs.set(to.key, (this.waitMs.get(to.key) ?? 0) + performance.now() - to.at);
        }
        replies = replies.subarray(len);
      }
    });
    let pending: Buffer = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      this.bytesSent += chunk.length;
      server.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 16) {
        const len = pending.readInt32LE(0);
        if (pending.length < len) break;
        this.count(pending.subarray(0, len));
        pending = pending.subarray(len);
      }
    });
  }

  /** Reads the command name (first key of the command document) and its collection (a string value). */
  private count(msg: Buffer): void {
    const opCode = msg.readInt32LE(12);
    let doc: Buffer | undefined;
    if (opCode === 2013) {
      // OP_MSG: flagBits, then sections; kind 0 is the command document
      if (msg[20] === 0) doc = msg.subarray(21);
    } else if (opCode === 2004) {
      // OP_QUERY: flags, fullCollectionName (cstring), numberToSkip, numberToReturn, query
      const end = msg.indexOf(0, 20);
      doc = msg.subarray(end + 9);
    }
    if (!doc || doc.length < 6) return;
    const type = doc[4];
    const keyEnd = doc.indexOf(0, 5);
    const name = doc.subarray(5, keyEnd).toString('latin1');
    if (MONITORING.has(name)) {
      this.monitoring++;
      return;
    }
    let coll = '';
    if (type === 0x02) {
      const strLen = doc.readInt32LE(keyEnd + 1);
      coll = doc.subarray(keyEnd + 5, keyEnd + 4 + strLen).toString('utf8');
    }
    const key = coll ? `${name} ${coll}` : name;
    this.work.set(key, (this.work.get(key) ?? 0) + 1);
    this.workTotal++;
    if (this.sent.size < 100_000) this.sent.set(msg.readInt32LE(4), { key, at: performance.now() });
  }
}
