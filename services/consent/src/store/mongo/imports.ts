import { Schema, type Connection, type Model } from 'mongoose';
import { bulkWriteFailures, isDuplicateKey, requiredFields } from '@accord/common';
import type { ConsentEvent } from '../../domain/consent';
import type { ImportedEvent, ImportJob } from '../../domain/import';
import type { ImportStore } from '../../app/ports';
import { fromDoc, toDoc } from './docs';
import { driverCollection, type EventDoc, type Models } from './models';

/**
 * consent_imports: one document per import job (docs/consent.md, Import), _id the job id
 * (time-ordered), updated with `$inc` and `$push` per batch so that any replica answers its
 * progress. The imported events themselves are consent_events documents with `importedAt` and
 * `importKey` (unique: the `import_key` index).
 */
export interface ImportDoc extends Omit<ImportJob, 'id'> {
  _id: string;
}

export function defineImportModel(conn: Connection): Model<ImportDoc> {
  const imports = new Schema<ImportDoc>(
    {
      ...requiredFields({ _id: String, accountId: String }),
      appId: String,
      format: String,
      state: String,
      read: Number,
      stored: Number,
      duplicates: Number,
      refused: Number,
      errors: Schema.Types.Mixed,
      columns: [String],
      failure: String,
      createdAt: Date,
      updatedAt: Date,
    },
    // `errors` is a field here, not mongoose's validation errors
    { _id: false, versionKey: false, suppressReservedKeysWarning: true, collection: 'consent_imports' },
  );
  return conn.model<ImportDoc>('ConsentImport', imports);
}

const toJob = (d: ImportDoc): ImportJob => {
  const { _id, ...rest } = d;
  const job: ImportJob = { ...rest, id: _id, errors: (d.errors ?? []).map((e) => ({ line: e.line, field: e.field, detail: e.detail })) };
  if (!d.columns?.length) delete job.columns;
  if (d.failure == null) delete job.failure;
  return job;
};

/** consent_imports and the imported events (see ImportStore). */
export function mongoImportStore(m: Models, model: Model<ImportDoc>): ImportStore {
  const jobs = driverCollection(model);
  const events = driverCollection(m.events);
  return {
    async create(job) {
      const { id, ...rest } = job;
      await jobs.insertOne({ _id: id, ...rest });
    },
    async get(accountId, id) {
      const d = await jobs.findOne({ _id: id, accountId });
      return d ? toJob(d) : undefined;
    },
    async progress(accountId, id, add, at) {
      const d = await jobs.findOneAndUpdate(
        { _id: id, accountId, state: 'running' },
        {
          $inc: { read: add.read, stored: add.stored, duplicates: add.duplicates, refused: add.refused },
          ...(add.errors.length ? { $push: { errors: { $each: add.errors } } } : {}),
          $set: { updatedAt: at },
        },
        { returnDocument: 'after' },
      );
      return d ? toJob(d) : undefined;
    },
    async setColumns(accountId, id, columns) {
      await jobs.updateOne({ _id: id, accountId, state: 'running' }, { $set: { columns } });
    },
    async finish(accountId, id, state, failure, at) {
      await jobs.updateOne({ _id: id, accountId, state: 'running' }, { $set: { state, updatedAt: at, ...(failure !== undefined ? { failure } : {}) } });
      return this.get(accountId, id);
    },
    /**
     * One read of the erased forms of the keys (when given), then one unordered insert: every
     * event whose key is new is stored, each duplicate key fails on `import_key` alone. No `pub` (history is not announced on the bus), `logq` (every imported
     * event gets its leaf). Then one read of the duplicates' stored events, by key.
     */
    async insertEvents(all, erasedKeys) {
      let duplicates: ConsentEvent[] = [];
      let list = all;
      // the events stored before and erased since: their keys are the keyed hashes of these ones
      if (erasedKeys?.length && all.length) {
        const erased = await events.find({ importKey: { $in: [...new Set(erasedKeys)] } }).toArray();
        if (erased.length) {
          const known = new Set(erased.map((d) => d.importKey));
          list = all.filter((_, i) => !known.has(erasedKeys[i]));
          duplicates = erased.map((d) => fromDoc(d));
        }
      }
      if (!list.length) return { stored: [], duplicates };
      const docs: EventDoc[] = list.map((ev) => ({ ...toDoc(ev), importKey: ev.importKey, logq: ev.accountId }));
      let failed = new Map<number, unknown>();
      try {
        await events.insertMany(docs, { ordered: false });
      } catch (err) {
        const perDoc = bulkWriteFailures(err);
        if (!perDoc || [...perDoc.values()].some((e) => !isDuplicateKey(e))) throw err;
        failed = perDoc;
      }
      const stored: ImportedEvent[] = list.filter((_, i) => !failed.has(i));
      if (failed.size) {
        const keys = [...new Set([...failed.keys()].map((i) => list[i]!.importKey))];
        const had = await events.find({ importKey: { $in: keys } }).toArray();
        duplicates = [...duplicates, ...had.map((d) => fromDoc(d))];
      }
      return { stored, duplicates };
    },
  };
}
