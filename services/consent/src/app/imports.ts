import { FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@accord/common';
import { erasedImportKey } from '../domain/erasure';
import { timeOrderedId } from '../domain/event-id';
import {
  cappedErrors,
  csvHeader,
  firstErrors,
  csvRecord,
  importedEvent,
  importedLinkInput,
  IMPORT_FORMATS,
  MAX_IMPORT_BATCH,
  MAX_IMPORT_LINE,
  ndjsonRecord,
  newImportJob,
  type ImportedEvent,
  type ImportError,
  type ImportFormat,
  type ImportJob,
} from '../domain/import';
import { LinkConflictError } from '../domain/link';
import type { Links } from './links';
import type { ConsentLogPort, Lifecycle, WritePath } from './ports';

/** One line of an import as sent (numbers from 1). */
export interface ImportLineIn {
  number: number;
  text: string;
}

/** A link line checked, waiting for the link rules (domain/import.ts `importedLinkInput`). */
type LinkLine = { number: number } & Exclude<ReturnType<typeof importedLinkInput>, { errors: unknown }>;

/** Settings of imports. */
export interface ImportSettings {
  /** Imported events per second this process stores at most, over all imports (ACCORD_CONSENT_IMPORT_RATE; 0: no limit). */
  ratePerSecond: number;
  /**
   * The account's erasure key (domain/erasure.ts accountErasureKey), when erasure is configured:
   * a line whose event was stored and then erased is a duplicate, not stored again in clear.
   */
  erasureKeyOf?: (accountId: string) => Buffer;
}

/**
 * Imports (docs/consent.md, Import): a job per import, stored (consent_imports) so that every
 * replica answers its progress; its lines arrive in batches, in order (ImportLines), each
 * checked and made an event with its original `createdAt` (domain/import.ts), stored once per key
 * (a duplicate is counted, never stored again), then its current state applied (the newest
 * `createdAt` wins: an old event never replaces a newer one) and its counters, and the log
 * nudged (every imported event gets its leaf). Imported events are not announced on the bus:
 * webhooks receive what happens, not history. Link lines (NDJSON `type: "subject.linked"`, the
 * export's with `links=true`) are stored the same way by `links` (app/links.ts `importLink`).
 */
export class Imports {
  /** The rate's bucket: when the next event may be stored (this process). */
  private nextFree = 0;
  /** Where link lines go (service.ts sets the consent service's Links); without it link lines are refused. */
  links?: Pick<Links, 'importLink' | 'importedKeys'>;

  constructor(
    private readonly store: Pick<WritePath, 'current' | 'statistics'> & Pick<Lifecycle, 'imports'>,
    private readonly settings: ImportSettings,
    private readonly log?: Pick<ConsentLogPort, 'nudge'>,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async start(accountId: string, appId: string, format: string): Promise<ImportJob> {
    if (!accountId || !appId) throw new InvalidArgumentError('an import belongs to an account and an application');
    if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw InvalidArgumentError.field('format', `must be one of ${IMPORT_FORMATS.join(', ')}`);
    const at = new Date(this.now());
    const job = newImportJob(timeOrderedId(at), accountId, appId, format as ImportFormat, at);
    await this.store.imports.create(job);
    return job;
  }

  async get(accountId: string, id: string): Promise<ImportJob> {
    const job = await this.store.imports.get(accountId, id);
    if (!job) throw new NotFoundError('No such import.');
    return firstErrors(job);
  }

  /**
   * One batch of lines of a running import (CSV: line 1 is the header row, which ends the import
   * when it is bad, and must be sent before any other line). Batches of one import may be sent
   * side by side: counts add up, and each batch keeps at least the errors the first 1,000 need
   * (the job answers them sorted by line, cut at 1,000). `batchStored`: what this batch stored.
   */
  async lines(accountId: string, id: string, lines: ImportLineIn[]): Promise<ImportJob & { batchStored: number }> {
    if (lines.length > MAX_IMPORT_BATCH) throw InvalidArgumentError.field('lines', `at most ${MAX_IMPORT_BATCH} per call`);
    let job = await this.get(accountId, id);
    if (job.state !== 'running') throw new FailedPreconditionError(`This import is ${job.state}.`);
    const importedAt = new Date(this.now());
    const errors: ImportError[] = [];
    const events: ImportedEvent[] = [];
    const links: LinkLine[] = [];
    let read = 0;
    for (const line of lines) {
      if (job.format === 'csv' && line.number === 1) {
        try {
          job.columns = csvHeader(line.text);
          await this.store.imports.setColumns(accountId, id, job.columns);
        } catch (err) {
          if (!(err instanceof InvalidArgumentError)) throw err;
          const fields = err.fields.map((f) => ({ line: 1, field: f.field, detail: f.message }));
          await this.store.imports.progress(accountId, id, { read: 0, stored: 0, duplicates: 0, refused: 0, errors: cappedErrors(job, fields) }, importedAt);
          return { ...((await this.store.imports.finish(accountId, id, 'failed', 'the CSV header row is not valid', importedAt)) ?? job), batchStored: 0 };
        }
        continue;
      }
      read++;
      if (line.text.length > MAX_IMPORT_LINE) {
        errors.push({ line: line.number, field: '', detail: `is longer than ${MAX_IMPORT_LINE} characters` });
        continue;
      }
      if (line.text.trim() === '') {
        errors.push({ line: line.number, field: '', detail: 'is empty' });
        continue;
      }
      const parsed = job.format === 'csv' ? csvRecord(line.text, job.columns ?? []) : ndjsonRecord(line.text);
      if ('link' in parsed) {
        const link = importedLinkInput(parsed.record, accountId, importedAt);
        if ('link' in link) links.push({ number: line.number, ...link });
        else errors.push(...link.errors.map((e) => ({ line: line.number, ...e })));
        continue;
      }
      const made = 'record' in parsed ? importedEvent(parsed.record, accountId, job.appId, importedAt) : parsed;
      if ('event' in made) events.push(made.event);
      else errors.push(...made.errors.map((e) => ({ line: line.number, ...e })));
    }
    await this.admit(events.length + links.length);
    const key = events.length ? this.settings.erasureKeyOf?.(accountId) : undefined;
    const erasedKeys = key ? events.map((e) => erasedImportKey(key, accountId, e.importKey)) : undefined;
    const { stored, duplicates } = await this.store.imports.insertEvents(events, erasedKeys);
    const linked = await this.importLinks(accountId, job.appId, links, importedAt, errors);
    // the current states of the stored events, and again of those stored before (a batch cut
    // short after its insert is finished when the import is resumed; applying is idempotent)
    await Promise.all([this.store.current.apply([...stored, ...duplicates]), this.store.statistics.count(stored)]);
    if (stored.length || linked.stored) this.log?.nudge();
    const refusedLines = new Set(errors.map((e) => e.line)).size;
    const batchStored = stored.length + linked.stored;
    job =
      (await this.store.imports.progress(
        accountId,
        id,
        {
          read,
          stored: batchStored,
          duplicates: events.length - stored.length + linked.duplicates,
          refused: refusedLines,
          errors: cappedErrors(job, errors),
        },
        new Date(this.now()),
      )) ?? (await this.get(accountId, id));
    return { ...firstErrors(job), batchStored };
  }

  /**
   * A batch's link lines, one by one in line order (each link's rule reads the links before it):
   * a key stored already is a duplicate (told first, so posting a file again never meets its own
   * links as a chain), a link the no-chain rule refuses is that line's error naming the field.
   */
  private async importLinks(
    accountId: string,
    appId: string,
    lines: LinkLine[],
    importedAt: Date,
    errors: ImportError[],
  ): Promise<{ stored: number; duplicates: number }> {
    const out = { stored: 0, duplicates: 0 };
    if (!lines.length) return out;
    if (!this.links) {
      errors.push(...lines.map((l) => ({ line: l.number, field: 'type', detail: 'link lines are not imported by this service' })));
      return out;
    }
    // a line whose link was erased since is stored under its key's keyed hash: a duplicate too
    const key = this.settings.erasureKeyOf?.(accountId);
    const erasedKey = (l: LinkLine) => (key ? erasedImportKey(key, accountId, l.importKey) : l.importKey);
    const had = await this.links.importedKeys([...new Set(lines.flatMap((l) => [l.importKey, erasedKey(l)]))]);
    for (const l of lines) {
      if (had.has(l.importKey) || had.has(erasedKey(l))) {
        out.duplicates++;
        continue;
      }
      try {
        if (await this.links.importLink(accountId, appId, l.link, { createdAt: l.createdAt, importedAt }, l.importKey)) out.stored++;
        else out.duplicates++;
        had.add(l.importKey);
      } catch (err) {
        if (!(err instanceof LinkConflictError)) throw err;
        errors.push(...err.fields.map((f) => ({ line: l.number, field: f.field, detail: f.message })));
      }
    }
    return out;
  }

  /** Ends a running import: done, or failed with the reason (its body could not be read to the end). */
  async finish(accountId: string, id: string, failure?: string): Promise<ImportJob> {
    await this.get(accountId, id);
    const job = await this.store.imports.finish(accountId, id, failure ? 'failed' : 'done', failure || undefined, new Date(this.now()));
    if (!job) throw new NotFoundError('No such import.');
    return firstErrors(job);
  }

  /** Waits until `n` more events fit the operator's rate (this process's share of it). */
  private async admit(n: number): Promise<void> {
    const rate = this.settings.ratePerSecond;
    if (rate <= 0 || n === 0) return;
    const now = this.now();
    const start = Math.max(now, this.nextFree);
    this.nextFree = start + (n * 1000) / rate;
    if (start > now) await this.sleep(start - now);
  }
}
