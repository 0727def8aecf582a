import type { Writable } from 'node:stream';
import { constants as zlibConstants, createGzip, type Gzip } from 'node:zlib';
import type { Request, Response, Router } from 'express';
import { status as Code } from '@grpc/grpc-js';
import { isServiceError, type FieldError } from '@accord/common';
import { consentEventJson, contracts, exportLines, subjectLinkJson, type consentv1 } from '@accord/proto';
import type { GatewayContext } from '../context';
import { wireDate } from '../date-time';
import { validateQuery } from '../openapi/validate';
import { HttpProblem } from '../problem';
import { recordPages } from './dpv';

/** Events per page an export reads (its memory bound). */
const EXPORT_PAGE = contracts.consent.LIMITS.exportPage;
const EXPORT_JSON_MAX = contracts.consent.LIMITS.exportJsonMax;

/**
 * The body of an export: written as is, or gzip-compressed when the client accepts it
 * (`Content-Encoding: gzip`), flushed after every page so that a client sees progress.
 * `write` resolves when the client has taken the chunk (back-pressure), or the client left.
 */
export class ExportBody {
  closed = false;
  private readonly sink: Writable;
  private readonly gzip?: Gzip;

  constructor(
    req: Request,
    private readonly res: Response,
  ) {
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      this.gzip = createGzip();
    }
    this.sink = this.gzip ?? res;
    res.on('close', () => {
      this.closed = true;
      this.gzip?.destroy();
    });
  }

  /** Sends the headers (the status and headers must be set before). */
  async start(): Promise<void> {
    if (this.gzip) this.gzip.pipe(this.res);
    else this.res.flushHeaders();
  }

  async write(chunk: string): Promise<void> {
    if (this.closed) return;
    if (!this.sink.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.sink.off('drain', done).off('close', done);
          resolve();
        };
        this.sink.on('drain', done).on('close', done);
      });
    }
    if (this.gzip && !this.closed) await new Promise<void>((resolve) => this.gzip!.flush(zlibConstants.Z_SYNC_FLUSH, () => resolve()));
  }

  end(): void {
    this.sink.end();
  }

  destroy(): void {
    this.gzip?.destroy();
    this.res.destroy();
  }
}

/**
 * GET /consents/export: the account's events as NDJSON, streamed page by page and resumable with
 * `cursor`, or one subject's export as one JSON document (the consent service's ExportSubject
 * decides which events and current states it holds, and refuses a subject over the limit).
 */
export function exportRoutes(r: Router, ctx: GatewayContext): void {
  const consent = ctx.clients.consent;
  r.get('/consents/export', validateQuery('ConsentExportQuery'), async (req, res) => {
    const q = res.locals.query as {
      since?: string;
      until?: string;
      appId?: string;
      target?: string;
      subject?: string;
      cursor?: string;
      format?: string;
      links?: boolean;
    };
    // the answer depends on both: say so to caches
    res.setHeader('Vary', 'Accept, Accept-Encoding');
    const filters: Omit<consentv1.ExportConsentsRequest, 'accountId' | 'cursor' | 'limit' | 'withTotal'> = {};
    if (q.since) filters.since = wireDate(q.since, 'since');
    if (q.until) filters.until = wireDate(q.until, 'until');
    if (q.appId) filters.appId = q.appId;
    if (q.target) filters.target = q.target;
    if (q.subject) filters.subject = q.subject;
    const base = { accountId: req.auth!.accountId, cursor: q.cursor ?? '', limit: EXPORT_PAGE, withTotal: false, ...filters };
    const preferred = req.accepts(['application/x-ndjson', 'application/json', contracts.dpv.JSONLD_MEDIA_TYPE]);
    if (q.links) {
      // link lines are NDJSON of the REST form: neither DPV records nor the one-subject document (which lists its links already)
      const jsonLd = contracts.dpv.wantsJsonLd(q.format, preferred);
      if (jsonLd || preferred === 'application/json')
        throw HttpProblem.validation([
          {
            field: 'links',
            message: jsonLd
              ? 'is for the NDJSON export of events and links; DPV JSON-LD records are of consent events only'
              : 'is for the NDJSON export; the JSON subject export lists the subject’s links (`links`) already',
          },
        ]);
      await ndjsonExport(req, res, eventPages({ ...base, links: true }));
    } else if (contracts.dpv.wantsJsonLd(q.format, preferred)) {
      // one DPV JSON-LD record per line, as the consent service writes them (the state before an event from the stream's events)
      await ndjsonExport(req, res, recordPages(ctx, { ...base, withTotal: true }));
    } else if (preferred === 'application/json') await jsonExport(req, res, q, filters);
    else await ndjsonExport(req, res, eventPages(base));
  });

  /** One subject's export as one document. */
  async function jsonExport(
    req: Request,
    res: Response,
    q: { subject?: string; cursor?: string },
    filters: Omit<consentv1.ExportSubjectRequest, 'accountId' | 'subject'>,
  ) {
    const errors: FieldError[] = [];
    if (!q.subject)
      errors.push({ field: 'subject', message: 'is required with Accept: application/json (one subject’s export); the account’s events export as NDJSON' });
    if (q.cursor) errors.push({ field: 'cursor', message: 'is for resuming an NDJSON export; the JSON form is one document' });
    if (errors.length) throw HttpProblem.validation(errors);
    let doc: consentv1.SubjectExport;
    try {
      doc = await consent.exportSubject({ ...filters, accountId: req.auth!.accountId, subject: q.subject! });
    } catch (err) {
      if (isServiceError(err) && err.code === Code.FAILED_PRECONDITION) {
        throw new HttpProblem(
          413,
          'Export too large for JSON',
          `This subject has more than ${EXPORT_JSON_MAX} events (with these filters): ask for NDJSON (Accept: application/x-ndjson, the default), which streams any number and resumes with cursor, or narrow with since/until/appId/target.`,
          [{ field: 'subject', message: `has more than ${EXPORT_JSON_MAX} events; export it as NDJSON` }],
        );
      }
      throw err;
    }
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('X-Total-Count', String(doc.events.length));
    const out = new ExportBody(req, res);
    await out.start();
    await out.write(
      JSON.stringify({
        subject: q.subject,
        events: doc.events.map(consentEventJson),
        current: doc.current.map(consentEventJson),
        ...(doc.links.length ? { links: doc.links.map(subjectLinkJson) } : {}),
      }),
    );
    out.end();
  }

  /**
   * The export's pages as NDJSON lines (with links=true, the page's link events among them): the
   * first page (and the size estimate) before the headers, the next read while this one goes out
   * (two pages in memory at most): the database and the client's network overlap instead of taking turns.
   */
  async function* eventPages(base: consentv1.ExportConsentsRequest): AsyncGenerator<{ lines: string; total?: number }> {
    let page = await consent.exportConsents({ ...base, withTotal: true });
    for (;;) {
      const next = page.nextCursor ? consent.exportConsents({ ...base, cursor: page.nextCursor }) : undefined;
      next?.catch(() => undefined); // awaited below, unless the client left
      yield { lines: exportLines(page.events, page.links), ...(page.total !== undefined ? { total: page.total } : {}) };
      if (!next) return;
      page = await next;
    }
  }

  /** An export streamed as NDJSON, page by page. */
  async function ndjsonExport(req: Request, res: Response, pages: AsyncGenerator<{ lines: string; total?: number }>) {
    // the first page before the headers, so that a bad request is still a problem answer
    const first = await pages.next();
    res.status(200).setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    if (!first.done && first.value.total !== undefined) res.setHeader('X-Total-Count', String(first.value.total));
    const out = new ExportBody(req, res);
    await out.start();
    try {
      for (let page = first; !page.done; page = await pages.next()) {
        // wait until the client has taken this page before taking another
        if (page.value.lines) await out.write(page.value.lines);
        if (out.closed) break;
      }
      out.end();
    } catch (err) {
      // headers are sent: end the stream early; the client resumes with the id of its last line
      ctx.logger.warn({ err }, 'consent export ended early');
      out.destroy();
    } finally {
      await pages.return(undefined).catch(() => undefined); // the client left: the reads stop
    }
  }
}
