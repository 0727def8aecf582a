import { implement, type Logger } from '@accord/common';
import type { consentimportv1 } from '@accord/proto';
import type { Imports } from '../app/imports';
import type { ImportJob } from '../domain/import';

/** An import job as its message (the counts, the first errors, the state). */
export function importJobMessage(job: ImportJob & { batchStored?: number }): consentimportv1.ImportJob {
  return {
    id: job.id,
    state: job.state,
    read: job.read,
    stored: job.stored,
    duplicates: job.duplicates,
    refused: job.refused,
    errors: job.errors.map((e) => ({ line: e.line, field: e.field, detail: e.detail })),
    appId: job.appId,
    format: job.format,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    failure: job.failure ?? '',
    batchStored: job.batchStored ?? 0,
  };
}

/** Imports with their original times (app/imports.ts): translation only. */
export function importHandlers(imports: Imports, logger: Logger) {
  return implement<consentimportv1.ConsentImportServiceServer>(
    {
      async startImport(req) {
        return importJobMessage(await imports.start(req.accountId, req.appId, req.format));
      },
      async importLines(req) {
        return importJobMessage(
          await imports.lines(
            req.accountId,
            req.id,
            req.lines.map((l) => ({ number: l.number, text: l.text })),
          ),
        );
      },
      async finishImport(req) {
        return importJobMessage(await imports.finish(req.accountId, req.id, req.failure || undefined));
      },
      async getImport(req) {
        return importJobMessage(await imports.get(req.accountId, req.id));
      },
    },
    logger,
  );
}
