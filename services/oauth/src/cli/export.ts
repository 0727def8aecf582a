/**
 * `npm run -s admin -- export`: an account's consent events (with `--links`, its link events too)
 * as NDJSON (the lines of GET /consent/v0/consents/export, written by @accord/proto exportLines), read from the consent service's ExportConsents RPC page by
 * page, to a file or stdout, optionally gzip-compressed, with a progress bar on stderr from the
 * same estimate as X-Total-Count. Resumable: an interrupted export prints the cursor to resume
 * with, and `--resume` continues an uncompressed output file after its last complete line.
 */
import { createWriteStream, existsSync, openSync, closeSync, ftruncateSync, statSync, readSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { createClient, grpcTls, serviceSigner } from '@accord/common';
import { consentv1, exportLines } from '@accord/proto';

export interface ExportArgs {
  accountId: string;
  since?: Date;
  until?: Date;
  appId?: string;
  target?: string;
  subject?: string;
  cursor?: string;
  output?: string;
  gzip: boolean;
  resume: boolean;
  progress: boolean;
  /** The account's link events too, as lines of their own among the events (the export's `links=true`). */
  links: boolean;
}

export interface ExportIO {
  stdout: { write(s: string | Buffer): unknown } & Partial<Pick<Writable, 'once'>>;
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** The end of the last complete line of an NDJSON file and that line's id (the cursor to resume from). */
export function lastCompleteLine(file: string): { end: number; id?: string } {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    // lines are small (one event): read back in blocks until two newlines are found
    let tail = Buffer.alloc(0);
    for (let pos = size; pos > 0;) {
      const n = Math.min(65536, pos);
      pos -= n;
      const block = Buffer.alloc(n);
      readSync(fd, block, 0, n, pos);
      tail = Buffer.concat([block, tail]);
      const last = tail.lastIndexOf(10);
      if (last === -1) continue;
      const prev = tail.lastIndexOf(10, last - 1);
      if (prev === -1 && pos > 0) continue;
      const line = tail.subarray(prev + 1, last).toString('utf8');
      const id = (JSON.parse(line) as { id?: unknown }).id;
      return { end: pos + last + 1, ...(typeof id === 'string' ? { id } : {}) };
    }
    return { end: 0 };
  } finally {
    closeSync(fd);
  }
}

function bar(done: number, total: number | undefined, links?: number): string {
  if (links !== undefined) return `${bar(done, total)}, ${links} links`;
  if (!total) return `${done} events`;
  const f = Math.min(1, done / total);
  const width = 30;
  const fill = Math.round(f * width);
  return `[${'#'.repeat(fill)}${'-'.repeat(width - fill)}] ${(f * 100).toFixed(0).padStart(3)}% ${done}/~${total} events`;
}

/** Where `export` reads: the consent service, the admin identity's key and, with mutual TLS, its certificate files. */
export interface ConsentTarget {
  addr: string;
  serviceKey: string;
  tls?: { ca: string; cert: string; key: string };
}

/** Runs the export; resolves to the exit code. */
export async function runExport(a: ExportArgs, target: ConsentTarget, io: ExportIO): Promise<number> {
  let cursor = a.cursor ?? '';
  let append = false;
  if (a.resume) {
    if (!a.output || a.gzip) throw new Error('export: --resume continues an uncompressed --output file; for gzip output pass --cursor <id of the last event>');
    if (existsSync(a.output)) {
      const last = lastCompleteLine(a.output);
      // drop a partial last line, continue after the last complete one
      const fd = openSync(a.output, 'r+');
      ftruncateSync(fd, last.end);
      closeSync(fd);
      if (last.id) cursor = last.id;
      append = true;
    }
  }
  // the operator's service identity (`admin`): the consent service admits it to exports of any account
  const identity = serviceSigner('admin', target.serviceKey);
  const tls = target.tls
    ? grpcTls({ ACCORD_GRPC_TLS_CA_FILE: target.tls.ca, ACCORD_GRPC_TLS_CERT_FILE: target.tls.cert, ACCORD_GRPC_TLS_KEY_FILE: target.tls.key })
    : undefined;
  const client = createClient(consentv1.ConsentServiceService, target.addr, { timeoutMs: 60_000, retries: 2, identity, tls });
  const sink: Writable | ExportIO['stdout'] = a.output ? createWriteStream(a.output, { flags: append ? 'a' : 'w' }) : io.stdout;
  const gz = a.gzip ? createGzip() : undefined;
  if (gz) gz.pipe(sink as Writable);
  const out = (gz ?? sink) as Writable;
  const req: consentv1.ExportConsentsRequest = { accountId: a.accountId, cursor, limit: 1000, withTotal: true };
  if (a.links) req.links = true;
  if (a.since) req.since = a.since;
  if (a.until) req.until = a.until;
  if (a.appId) req.appId = a.appId;
  if (a.target) req.target = a.target;
  if (a.subject) req.subject = a.subject;
  // ends what this command opened (the gzip stream, the file), never stdout itself
  const finish = async () => {
    if (gz) {
      const ended = once(gz, 'end');
      gz.end();
      await ended;
    }
    if (a.output) {
      const file = sink as Writable;
      if (!gz) file.end();
      if (!file.writableFinished) await once(file, 'finish');
    }
  };
  let done = 0;
  let linked = 0;
  let total: number | undefined;
  let lastId = cursor;
  let shownAt = -1;
  const show = (final = false) => {
    if (!a.progress) return;
    if (io.stderr.isTTY) io.stderr.write(`\r${bar(done, total, a.links ? linked : undefined)}${final ? '\n' : ''}`);
    else {
      // not a terminal: one line per tenth
      const step = total ? Math.floor((10 * done) / total) : -1;
      if (final || step > shownAt) io.stderr.write(`${bar(done, total, a.links ? linked : undefined)}\n`);
      shownAt = step;
    }
  };
  try {
    for (let first = true; ; first = false) {
      const page = await client.exportConsents({ ...req, cursor: lastId, withTotal: first });
      if (first && page.total !== undefined) total = page.total;
      const lines = page.events.length + page.links.length;
      if (lines) {
        if (!out.write(exportLines(page.events, page.links))) await once(out, 'drain');
        // the last line's id: events and links are written by id, and either resumes both
        const lastEvent = page.events.at(-1)?.id ?? '';
        const lastLink = page.links.at(-1)?.id ?? '';
        lastId = lastEvent > lastLink ? lastEvent : lastLink;
        done += page.events.length;
        linked += page.links.length;
      }
      show();
      if (!page.nextCursor) break;
    }
    await finish();
    show(true);
    return 0;
  } catch (err) {
    await finish().catch(() => undefined);
    show(true);
    io.stderr.write(
      `error: export interrupted after ${done} events${a.links ? ` and ${linked} links` : ''}: ${(err as Error).message}\n` +
        (lastId ? `resume with: --cursor ${lastId}${a.output && !a.gzip ? ` (or --resume --output ${a.output})` : ''}\n` : ''),
    );
    return 1;
  } finally {
    client.close();
    tls?.close();
  }
}
