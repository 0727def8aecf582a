import { execFileSync } from 'node:child_process';

/** How long a service of a test may take to start before the test says so (a start takes ~1 s). */
const SLOW_START_MS = 60_000;

/**
 * `start`, and a report on stderr if it has not settled after a minute: which service of which
 * test, and, when the test database is the local mongo-java-server, its threads that wait on a
 * lock (a service's start waits on database commands that have no deadline, such as creating
 * its indexes, so a server that stopped answering shows up here first). A diagnosis, not a
 * retry: the start goes on and the test's own timeout decides.
 */
export async function reportSlowStart<T>(label: string, mongoUrl: string | undefined, start: Promise<T>): Promise<T> {
  const timer = setTimeout(() => console.warn(slowStartReport(label, mongoUrl)), SLOW_START_MS);
  timer.unref();
  try {
    return await start;
  } finally {
    clearTimeout(timer);
  }
}

/** The report: the label, and the local database server's blocked threads and deadlocks when it can be asked. */
export function slowStartReport(label: string, mongoUrl: string | undefined): string {
  const head = `[testkit] ${label} has not started after ${SLOW_START_MS / 1000} s`;
  const port = mongoUrl && /^mongodb:\/\/(?:127\.0\.0\.1|localhost):(\d+)\//.exec(mongoUrl)?.[1];
  if (!port) return head;
  try {
    const pid = execFileSync('pgrep', ['-f', `accord.local.LocalMongo --port ${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n')[0];
    if (!pid) return `${head}; no local database server on port ${port}`;
    const dump = execFileSync('jstack', ['-l', pid], { encoding: 'utf8', timeout: 10_000, maxBuffer: 16 * 1024 * 1024 });
    return `${head}; the database server's (pid ${pid}) waiting threads:\n${waitingThreads(dump)}`;
  } catch (err) {
    return `${head}; no thread dump of the database server: ${(err as Error).message.split('\n')[0]}`;
  }
}

/** From a jstack dump: a deadlock report if there is one, else the threads BLOCKED or WAITING on a monitor, at most 120 lines. */
export function waitingThreads(dump: string): string {
  const deadlock = dump.indexOf('Found one Java-level deadlock');
  if (deadlock !== -1) return dump.slice(deadlock).split('\n').slice(0, 120).join('\n');
  const threads = dump.split('\n\n').filter((t) => /java\.lang\.Thread\.State: BLOCKED|waiting to lock/.test(t));
  return threads.length ? threads.join('\n\n').split('\n').slice(0, 120).join('\n') : '(none blocked: the server is busy or idle, not locked)';
}
