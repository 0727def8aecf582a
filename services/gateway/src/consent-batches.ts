import { Metadata, status as Code } from '@grpc/grpc-js';
import { asciiJson, FIELD_ERRORS_KEY, fieldErrorsOf, GroupCommit, isServiceError, type FieldError, type Pending } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import { HttpProblem } from './problem';

type Lane = GroupCommit<consentv1.ConsentInput, consentv1.ConsentEvent>;

/**
 * Group commit at the gateway for POST /consent/v0/consents of one event, on the house's one
 * mechanism (GroupCommit of @accord/common, the consent service's too) with a lane per account
 * and application (only their POSTs may share a CreateConsents call) and no lingering: a lone
 * POST calls the consent service at once, and the POSTs of the same lane that arrive while its
 * call is in flight go together in the next call, so under load N concurrent POSTs cost one gRPC
 * call (one HTTP/2 stream and one message each way, the gateway's largest cost per POST) instead
 * of N. Batching is behind the request, never in front of it: nothing waits on a timer.
 *
 * Each POST keeps its own outcome. The consent service validates a whole call before it stores
 * any of it, so when a call fails as INVALID_ARGUMENT naming the events at fault (`/<i>/…`),
 * those POSTs get their own field errors and the others go again at once; any other failure is
 * every POST's failure, as it would have been for each alone (stored or not, as a single call's
 * failure leaves it).
 */
export class ConsentBatches {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly create: (req: consentv1.CreateConsentsRequest) => Promise<consentv1.CreateConsentsResponse>,
    private readonly opts: { maxBatch?: number; maxInFlight?: number } = {},
  ) {}

  /** Records one event; resolves with the stored event. */
  add(accountId: string, appId: string, input: consentv1.ConsentInput): Promise<consentv1.ConsentEvent> {
    const key = `${accountId}\n${appId}`;
    const open = this.lanes.get(key);
    if (open) return open.add(input);
    const lane: Lane = new GroupCommit((batch) => this.write(accountId, appId, batch), {
      maxBatch: this.opts.maxBatch ?? 100,
      maxInFlight: this.opts.maxInFlight ?? 1,
      linger: false,
    });
    this.lanes.set(key, lane);
    const out = lane.add(input);
    // an idle lane is forgotten (after its first call is under way, so that it is not idle yet)
    void lane.drained().then(() => this.lanes.get(key) === lane && this.lanes.delete(key));
    return out;
  }

  private async write(accountId: string, appId: string, batch: Array<Pending<consentv1.ConsentInput, consentv1.ConsentEvent>>): Promise<void> {
    let left = batch;
    while (left.length) {
      let out: consentv1.CreateConsentsResponse;
      try {
        out = await this.create({ accountId, appId, events: left.map((w) => w.item) });
      } catch (err) {
        const byEvent = left.length > 1 ? fieldErrorsByEvent(err) : undefined;
        if (!byEvent) throw err; // every POST of the call gets it
        const again = left.filter((w, i) => {
          const fields = byEvent.get(i);
          if (fields) w.reject(HttpProblem.validation(fields));
          return !fields;
        });
        if (again.length === left.length) throw err;
        // nothing of the call was stored: the others go again, in their order
        left = again;
        continue;
      }
      if (out.events.length !== left.length) throw new Error(`the consent service stored ${out.events.length} events of ${left.length}`);
      left.forEach((w, i) => w.resolve(out.events[i]!));
      return;
    }
  }
}

/**
 * The field errors of a failed CreateConsents call by event index, paths as for a one-event body
 * (`/2/subject` → `/subject`), or undefined unless it is INVALID_ARGUMENT and every field names
 * an event.
 */
export function fieldErrorsByEvent(err: unknown): Map<number, FieldError[]> | undefined {
  if (!isServiceError(err) || err.code !== Code.INVALID_ARGUMENT) return undefined;
  const fields = fieldErrorsOf(err);
  if (!fields.length) return undefined;
  const out = new Map<number, FieldError[]>();
  for (const f of fields) {
    const m = /^\/(\d+)(\/.*)?$/.exec(f.field);
    if (!m) return undefined;
    const i = Number(m[1]);
    out.set(i, [...(out.get(i) ?? []), { field: m[2] ?? '/', message: f.message }]);
  }
  return out;
}

type SearchLane = GroupCommit<consentv1.SearchConsentsRequest, consentv1.SearchConsentsResponse>;

/**
 * Group commit at the gateway for GET /consent/v0/consents/search of one state (`current` with
 * a `scope`), on the same mechanism: the searches that arrive while one is in flight go together in one SearchConsentsBatch call (each
 * names its own account; the consent service answers each as SearchConsents would, or with its
 * own failure), so under load N concurrent reads cost one gRPC call — one HTTP/2 stream, one
 * message each way, one credential check — instead of N. A lone search goes at once as a plain
 * SearchConsents; a search never joins a call already sent, so it sees every write answered
 * before it arrived. A consent service without SearchConsentsBatch (an older one, during a
 * rolling upgrade) answers UNIMPLEMENTED: the searches then go one by one.
 */
export class ConsentSearches {
  private readonly lane: SearchLane;

  constructor(
    private readonly one: (req: consentv1.SearchConsentsRequest) => Promise<consentv1.SearchConsentsResponse>,
    private readonly many: (req: consentv1.SearchConsentsBatchRequest) => Promise<consentv1.SearchConsentsBatchResponse>,
    opts: { maxBatch?: number; maxInFlight?: number } = {},
  ) {
    this.lane = new GroupCommit((batch) => this.run(batch), { maxBatch: opts.maxBatch ?? 100, maxInFlight: opts.maxInFlight ?? 1, linger: false });
  }

  /**
   * Only the reads of one state (`current` with a `scope`: a lookup by key, the read of every page
   * view) share calls: a batch is answered once all its searches are, so a history or a
   * many-scope search, which may take far longer, goes alone rather than hold the others.
   */
  search(req: consentv1.SearchConsentsRequest): Promise<consentv1.SearchConsentsResponse> {
    return req.current && req.scope ? this.lane.add(req) : this.one(req);
  }

  private async run(batch: Array<Pending<consentv1.SearchConsentsRequest, consentv1.SearchConsentsResponse>>): Promise<void> {
    if (batch.length > 1) {
      let out: consentv1.SearchConsentsBatchResponse | undefined;
      try {
        out = await this.many({ searches: batch.map((p) => p.item) });
      } catch (err) {
        if (!isServiceError(err) || err.code !== Code.UNIMPLEMENTED) throw err;
      }
      if (out) {
        if (out.results.length !== batch.length) throw new Error(`the consent service answered ${out.results.length} searches of ${batch.length}`);
        out.results.forEach((r, i) =>
          r.failure ? batch[i]!.reject(searchFailure(r.failure)) : batch[i]!.resolve(r.response ?? { events: [], nextCursor: '' }),
        );
        return;
      }
    }
    await Promise.all(
      batch.map(async (p) => {
        try {
          p.resolve(await this.one(p.item));
        } catch (err) {
          p.reject(err);
        }
      }),
    );
  }
}

/** A search's failure in a batch as the error its own SearchConsents call would have thrown (the error middleware maps it alike). */
function searchFailure(f: consentv1.SearchFailure): Error {
  const metadata = new Metadata();
  if (f.fields.length) metadata.set(FIELD_ERRORS_KEY, asciiJson(f.fields.map((e) => ({ field: e.field, message: e.message }))));
  return Object.assign(new Error(`${f.code} ${Code[f.code] ?? ''}: ${f.message}`), { code: f.code, details: f.message, metadata });
}
