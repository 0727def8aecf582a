import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Router } from 'express';
import type { consentimportv1 } from '@accord/proto';
import { contracts } from '@accord/proto';
import type { GatewayContext } from '../context';
import type { Limiter } from '../limits/limiter';
import { HttpProblem } from '../problem';
import { releaseRequestDeadline } from '../request-deadline';

const { importBatch: IMPORT_BATCH, importLine: IMPORT_LINE } = contracts.consent.LIMITS;
/** Import ids (time-ordered, like erasure records): 32 lowercase hex characters. */
const IMPORT_ID = contracts.consent.EVENT_ID_PATTERN;
/** Batches of one import sent to the consent service side by side. */
const IMPORT_IN_FLIGHT = 2;
/**
 * The deadline of one batch (ImportLines), at least: a batch of 1,000 events waits for the
 * operator's import rate (shared by every import on the replica) and stores its events, their
 * current states and counters, which on a busy database takes longer than the deadline of a
 * request's call (ACCORD_GRPC_TIMEOUT_MS, 10 s), and one slow batch failed the whole import.
 */
const BATCH_DEADLINE_MS = 60_000;
/** Characters of lines in one batch at most. */
const BATCH_CHARS = 2_000_000;
/** What a line reads when it was longer than the limit (the consent service refuses it as such). */
const CUT = (text: string) => text.slice(0, IMPORT_LINE + 1);

/**
 * The lines of a body, as they arrive: split on LF (a CR before it dropped), UTF-8 decoded
 * across chunks, a line longer than the limit cut just past it (never held whole). The last line
 * need not end with LF. Memory: one chunk and one line.
 */
export async function* bodyLines(body: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of body) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    // the lines of this chunk by position (one copy of the rest at the end, not one per line)
    let from = 0;
    let nl: number;
    while ((nl = pending.indexOf('\n', from)) >= 0) {
      const line = pending.slice(from, nl);
      from = nl + 1;
      yield CUT(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    pending = pending.slice(from);
    // a line past the limit: keep only what tells that it is
    if (pending.length > IMPORT_LINE * 2) pending = CUT(pending);
  }
  pending += decoder.end();
  if (pending.endsWith('\r')) pending = pending.slice(0, -1);
  if (pending !== '') yield CUT(pending);
}

/** No byte of an import's body for the idle timeout (ACCORD_IMPORT_IDLE_TIMEOUT_MS). */
export class BodyIdleError extends Error {
  constructor(readonly ms: number) {
    super(`no byte of the body arrived for ${ms} ms`);
  }
}

/**
 * The chunks of a body, failing with BodyIdleError when the next one takes longer than `ms` to
 * come. Only the time spent waiting for the client counts: while the import stores a batch it
 * does not read (back-pressure), and that is not the client's idleness. On that failure the body
 * is left as it is (not destroyed), so that the import can still be answered.
 */
export async function* idleLimited<T>(body: AsyncIterable<T>, ms: number): AsyncGenerator<T> {
  const it = body[Symbol.asyncIterator]();
  let idle = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BodyIdleError(ms)), ms);
      });
      let next: IteratorResult<T>;
      try {
        next = await Promise.race([it.next(), timeout]);
      } catch (err) {
        idle = err instanceof BodyIdleError;
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    if (!idle) await it.return?.();
  }
}

/** The REST JSON of an import job. */
export function importJson(job: consentimportv1.ImportJob) {
  const { id, state, read, stored, duplicates, refused } = job;
  return {
    id,
    state,
    read,
    stored,
    duplicates,
    refused,
    errors: job.errors.map((e) => ({ line: e.line, field: e.field, detail: e.detail })),
    ...(job.failure ? { failure: job.failure } : {}),
    ...(job.createdAt ? { createdAt: job.createdAt.toISOString() } : {}),
    ...(job.updatedAt ? { updatedAt: job.updatedAt.toISOString() } : {}),
  };
}

/**
 * POST /imports and GET /imports/:id (docs/consent.md, Import). The body is read line by line as
 * it arrives and sent to the consent service in batches of IMPORT_BATCH lines, one batch at a time
 * (the request stream is paused meanwhile: back-pressure to the client), each batch counted
 * against the account's daily event quota first (the lines not stored are given back). The job
 * lives in the consent service, so any gateway replica answers its progress.
 */
export function importRoutes(r: Router, ctx: GatewayContext, limiter?: Limiter): void {
  const imports = ctx.clients.consentImport;
  r.post('/imports', async (req, res) => {
    const auth = req.auth!;
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'text/csv' && type !== 'application/x-ndjson')
      throw new HttpProblem(415, 'Unsupported Media Type', `The body must be application/x-ndjson or text/csv; this one is ${type || 'untyped'}.`);
    const format = type === 'text/csv' ? 'csv' : 'ndjson';
    // the body streams as long as it keeps coming: an idle timeout instead of the whole request's
    releaseRequestDeadline(req);
    const limits = limiter ? await limiter.limitsOf(auth.accountId) : undefined;
    let job = await imports.startImport({ accountId: auth.accountId, appId: auth.appId, format });
    const id = job.id;
    let failure = '';
    let closed = false;
    req.once('aborted', () => (closed = true));
    /** The first failure of a batch (the consent service's error): the import is failed with it, then the error answered. */
    let sendError: unknown;
    const send = async (lines: consentimportv1.ImportLine[]) => {
      if (!lines.length || failure || sendError !== undefined) return;
      let charged = 0;
      if (limiter && limits) {
        const c = await limiter.chargeEvents(auth.accountId, lines.length, limits);
        if (c.outcome === 'over-daily') {
          failure = `the account's daily event limit (${c.max}) is reached: ${c.used} used today; the count starts again in ${c.resetSeconds} s (resume by posting the same file again)`;
          return;
        }
        if (c.outcome === 'charged') charged = lines.length;
      }
      let stored = 0;
      try {
        const answer = await imports.importLines(
          { accountId: auth.accountId, id, lines },
          { timeoutMs: Math.max(BATCH_DEADLINE_MS, ctx.config.ACCORD_GRPC_TIMEOUT_MS) },
        );
        stored = answer.batchStored;
        if (answer.state !== 'running' || answer.read >= job.read) job = answer;
      } catch (err) {
        sendError ??= err;
      } finally {
        // imported events count against the quota; lines not stored (refused, duplicates) are given back
        if (charged > stored) limiter!.refundEvents(auth.accountId, charged - stored, limits!);
      }
    };
    const batch = Math.max(1, Math.min(IMPORT_BATCH, limits?.maxEventsPerRequest || IMPORT_BATCH));
    // after the first batch (a CSV header row goes first), IMPORT_IN_FLIGHT batches side by side:
    // reading the body and parsing overlap the database's work
    const inFlight = new Set<Promise<void>>();
    let first = true;
    const dispatch = async (lines: consentimportv1.ImportLine[]) => {
      if (first) {
        first = false;
        return send(lines);
      }
      const p = send(lines).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= IMPORT_IN_FLIGHT) await Promise.race(inFlight);
    };
    const stopped = () => !!failure || sendError !== undefined || job.state !== 'running';
    let lines: consentimportv1.ImportLine[] = [];
    try {
      let n = 0;
      let size = 0;
      for await (const text of bodyLines(idleLimited(req as Readable, ctx.config.ACCORD_IMPORT_IDLE_TIMEOUT_MS))) {
        lines.push({ number: ++n, text });
        size += text.length;
        // a batch stays well under gRPC's 4 MB message
        if (lines.length >= batch || size >= BATCH_CHARS) {
          size = 0;
          await dispatch(lines);
          lines = [];
          if (stopped()) break;
        }
      }
      if (!stopped()) await dispatch(lines);
    } catch (err) {
      if (err instanceof BodyIdleError) {
        // the whole lines that came are stored; the rest of the body is never read (the
        // connection closes after the answer)
        res.setHeader('connection', 'close');
        if (!stopped()) await dispatch(lines).catch((e: unknown) => (sendError ??= e));
        failure ||= `${err.message} (resume by posting the same file again: lines stored count as duplicates)`;
      } else if (!closed && !req.destroyed) sendError ??= err;
    } finally {
      await Promise.all(inFlight);
    }
    if (sendError !== undefined) {
      await imports
        .finishImport({ accountId: auth.accountId, id, failure: 'a batch could not be stored (post the same file again: lines stored count as duplicates)' })
        .catch(() => undefined);
      throw sendError;
    }
    if ((closed || !req.complete) && !failure)
      failure = 'the connection closed before the body ended (resume by posting the same file again: lines stored count as duplicates)';
    if (job.state === 'running') job = await imports.finishImport({ accountId: auth.accountId, id, failure });
    if (res.writableEnded || res.destroyed) return;
    res.status(202).setHeader('Location', `${ctx.baseUrl}/consent/v0/imports/${id}`);
    res.json(importJson(job));
  });

  r.get('/imports/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!IMPORT_ID.test(id)) throw HttpProblem.notFound('No such import.');
    res.json(importJson(await imports.getImport({ accountId: req.auth!.accountId, id })));
  });
}
