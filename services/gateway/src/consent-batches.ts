import { status as Code } from '@grpc/grpc-js';
import { fieldErrorsOf, isServiceError, type FieldError } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import { HttpProblem } from './problem';

interface Waiting {
  input: consentv1.ConsentInput;
  resolve: (event: consentv1.ConsentEvent) => void;
  reject: (err: unknown) => void;
}

/** The POSTs of one account and application: only they may share a CreateConsents call. */
interface Lane {
  accountId: string;
  appId: string;
  queue: Waiting[];
  inFlight: number;
}

/**
 * Group commit at the gateway for POST /consent/v0/consents of one event: a lone POST calls the
 * consent service at once, and the POSTs of the same account and application that arrive while
 * its call is in flight go together in the next call, so under load N concurrent POSTs cost one
 * gRPC call (one HTTP/2 stream and one message each way, the gateway's largest cost per POST)
 * instead of N. Batching is behind the request, never in front of it: nothing waits on a timer.
 *
 * Each POST keeps its own outcome. The consent service validates a whole call before it stores
 * any of it, so when a call fails as INVALID_ARGUMENT naming the events at fault (`/<i>/…`),
 * those POSTs get their own field errors and the others go again in the next call; any other
 * failure is every POST's failure, as it would have been for each alone (stored or not, as a
 * single call's failure leaves it).
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
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { accountId, appId, queue: [], inFlight: 0 }));
    const l = lane;
    return new Promise((resolve, reject) => {
      l.queue.push({ input, resolve, reject });
      this.drain(key, l);
    });
  }

  private drain(key: string, lane: Lane): void {
    while (lane.queue.length && lane.inFlight < (this.opts.maxInFlight ?? 1)) {
      const batch = lane.queue.splice(0, this.opts.maxBatch ?? 100);
      lane.inFlight++;
      this.create({ accountId: lane.accountId, appId: lane.appId, events: batch.map((w) => w.input) })
        .then(
          (out) => {
            if (out.events.length !== batch.length) throw new Error(`the consent service stored ${out.events.length} events of ${batch.length}`);
            batch.forEach((w, i) => w.resolve(out.events[i]!));
          },
          (err: unknown) => this.failed(lane, batch, err),
        )
        .catch((err: unknown) => batch.forEach((w) => w.reject(err)))
        .finally(() => {
          lane.inFlight--;
          if (!lane.queue.length && !lane.inFlight) this.lanes.delete(key);
          else this.drain(key, lane);
        });
    }
  }

  private failed(lane: Lane, batch: Waiting[], err: unknown): void {
    const byEvent = batch.length > 1 ? fieldErrorsByEvent(err) : undefined;
    if (!byEvent) {
      for (const w of batch) w.reject(err);
      return;
    }
    const again: Waiting[] = [];
    batch.forEach((w, i) => {
      const fields = byEvent.get(i);
      if (fields) w.reject(HttpProblem.validation(fields));
      else again.push(w);
    });
    // nothing of the call was stored: the others go first in the next call, in their order
    lane.queue.unshift(...again);
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
