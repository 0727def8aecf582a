import { Metadata, status as Code, type ServiceError } from '@grpc/grpc-js';
import { FIELD_ERRORS_KEY, fieldErrorsOf } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import { ConsentBatches, ConsentSearches, fieldErrorsByEvent } from './consent-batches';
import { HttpProblem } from './problem';

const input = (subject: string): consentv1.ConsentInput => ({ subject, issuer: 'https://i.example', target: 'https://t.example' });
const stored = (e: consentv1.ConsentInput, i: number): consentv1.ConsentEvent => ({
  ...e,
  id: `id-${e.subject}-${i}`,
  scope: 'default',
  token: '',
  appId: 'app',
});

function invalid(fields: Array<{ field: string; message: string }>): ServiceError {
  const metadata = new Metadata();
  metadata.set(FIELD_ERRORS_KEY, JSON.stringify(fields));
  return Object.assign(new Error('invalid'), { code: Code.INVALID_ARGUMENT, details: 'invalid', metadata });
}

/** A consent service whose calls are answered when the test says so. */
function service(answer: (req: consentv1.CreateConsentsRequest) => consentv1.CreateConsentsResponse | Error = (req) => ({ events: req.events.map(stored) })) {
  const calls: Array<{ req: consentv1.CreateConsentsRequest; finish(): void }> = [];
  const create = (req: consentv1.CreateConsentsRequest) =>
    new Promise<consentv1.CreateConsentsResponse>((resolve, reject) => {
      calls.push({
        req,
        finish: () => {
          const a = answer(req);
          if (a instanceof Error) reject(a);
          else resolve(a);
        },
      });
    });
  return { calls, create };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit of one-event POSTs at the gateway', () => {
  it('sends a lone POST at once, and the POSTs arriving meanwhile together in the next call, each answered with its own event', async () => {
    const s = service();
    const batches = new ConsentBatches(s.create);
    const first = batches.add('acc', 'app', input('a'));
    expect(s.calls.map((c) => c.req.events.length)).toEqual([1]);
    const later = ['b', 'c', 'd'].map((x) => batches.add('acc', 'app', input(x)));
    expect(s.calls).toHaveLength(1);
    s.calls[0]!.finish();
    expect((await first).subject).toBe('a');
    await tick();
    expect(s.calls[1]!.req.events.map((e) => e.subject)).toEqual(['b', 'c', 'd']);
    s.calls[1]!.finish();
    expect((await Promise.all(later)).map((e) => e.id)).toEqual(['id-b-0', 'id-c-1', 'id-d-2']);
  });

  it('never puts two applications or accounts in one call', async () => {
    const s = service();
    const batches = new ConsentBatches(s.create);
    const all = [batches.add('acc', 'app1', input('a')), batches.add('acc', 'app2', input('b')), batches.add('acc2', 'app1', input('c'))];
    expect(s.calls.map((c) => [c.req.accountId, c.req.appId, c.req.events.length])).toEqual([
      ['acc', 'app1', 1],
      ['acc', 'app2', 1],
      ['acc2', 'app1', 1],
    ]);
    s.calls.forEach((c) => c.finish());
    await Promise.all(all);
  });

  it('answers the events a call refused with their own field errors, and sends the others again', async () => {
    let refuse = true;
    const s = service((req) => {
      if (refuse && req.events.length > 1) {
        refuse = false;
        return invalid([{ field: '/1/targetVersion', message: 'is later than the current version 2' }]);
      }
      return { events: req.events.map(stored) };
    });
    const batches = new ConsentBatches(s.create);
    const first = batches.add('acc', 'app', input('a'));
    const rest = ['b', 'c', 'd'].map((x) => batches.add('acc', 'app', input(x)));
    const settled = Promise.allSettled(rest);
    s.calls[0]!.finish();
    await first;
    await tick();
    s.calls[1]!.finish(); // b, c, d: refused for c
    await tick();
    expect(s.calls[2]!.req.events.map((e) => e.subject)).toEqual(['b', 'd']);
    s.calls[2]!.finish();
    const [b, c, d] = await settled;
    expect(b).toMatchObject({ status: 'fulfilled', value: { subject: 'b' } });
    expect(d).toMatchObject({ status: 'fulfilled', value: { subject: 'd' } });
    expect(c!.status).toBe('rejected');
    const problem = (c as PromiseRejectedResult).reason as HttpProblem;
    expect(problem).toBeInstanceOf(HttpProblem);
    expect(problem.errors).toEqual([{ field: '/targetVersion', message: 'is later than the current version 2' }]);
  });

  it('fails every POST of a call that failed otherwise, and a lone POST with the service error itself', async () => {
    const down = Object.assign(new Error('unavailable'), { code: Code.UNAVAILABLE, details: '', metadata: new Metadata() });
    const s = service(() => down);
    const batches = new ConsentBatches(s.create);
    const first = batches.add('acc', 'app', input('a')).catch((e: unknown) => e);
    const rest = ['b', 'c'].map((x) => batches.add('acc', 'app', input(x)).catch((e: unknown) => e));
    s.calls[0]!.finish();
    expect(await first).toBe(down);
    await tick();
    s.calls[1]!.finish();
    expect(await Promise.all(rest)).toEqual([down, down]);
  });

  it('keeps at most maxBatch events in a call', async () => {
    const s = service();
    const batches = new ConsentBatches(s.create, { maxBatch: 2 });
    const all = ['a', 'b', 'c', 'd'].map((x) => batches.add('acc', 'app', input(x)));
    s.calls[0]!.finish();
    await tick();
    s.calls[1]!.finish();
    await tick();
    s.calls[2]!.finish();
    await Promise.all(all);
    expect(s.calls.map((c) => c.req.events.length)).toEqual([1, 2, 1]);
  });

  it('reads field errors by event only when every field names one', () => {
    expect(
      fieldErrorsByEvent(
        invalid([
          { field: '/0', message: 'x' },
          { field: '/2/subject', message: 'y' },
        ]),
      ),
    ).toEqual(
      new Map([
        [0, [{ field: '/', message: 'x' }]],
        [2, [{ field: '/subject', message: 'y' }]],
      ]),
    );
    expect(fieldErrorsByEvent(invalid([{ field: '/accountId', message: 'x' }]))).toBeUndefined();
    expect(fieldErrorsByEvent(new Error('x'))).toBeUndefined();
  });
});

describe('group commit of searches at the gateway', () => {
  const search = (subject: string, accountId = 'acc'): consentv1.SearchConsentsRequest => ({
    accountId,
    subject,
    issuer: 'https://i.example',
    target: 'https://t.example',
    current: true,
    scope: 'email',
  });
  const found = (q: consentv1.SearchConsentsRequest): consentv1.SearchConsentsResponse => ({
    events: [stored({ subject: `${q.accountId}/${q.subject}`, issuer: q.issuer, target: q.target }, 0)],
    nextCursor: '',
  });

  /** A consent service whose calls (single and batch) are answered when the test says so. */
  function searchService(batch: (req: consentv1.SearchConsentsBatchRequest) => consentv1.SearchConsentsBatchResponse | Error) {
    const calls: Array<{ kind: 'one' | 'many'; subjects: string[]; finish(): void }> = [];
    const later = <A>(kind: 'one' | 'many', subjects: string[], answer: () => A | Error) =>
      new Promise<A>((resolve, reject) => {
        calls.push({
          kind,
          subjects,
          finish: () => {
            const a = answer();
            if (a instanceof Error) reject(a);
            else resolve(a);
          },
        });
      });
    const searches = new ConsentSearches(
      (q) => later('one', [q.subject], () => found(q)),
      (q) =>
        later(
          'many',
          q.searches.map((s) => s.subject),
          () => batch(q),
        ),
    );
    return { calls, searches };
  }

  /**
   * A lone search for `lone`, sent and finished at once, then searches for `subjects` that queue
   * behind it and go as one batch call, finished too: the batched searches' answers to come.
   */
  async function batchedBehindOne({ calls, searches }: ReturnType<typeof searchService>, lone: string, subjects: string[]) {
    const first = searches.search(search(lone));
    const batched = subjects.map((subject) => searches.search(search(subject)));
    calls.at(-1)!.finish();
    await first;
    await tick();
    calls.at(-1)!.finish();
    return batched;
  }

  it('sends a lone search at once as SearchConsents, and those arriving meanwhile in one batch call, each answered its own (accounts mixed)', async () => {
    const { calls, searches } = searchService((q) => ({ results: q.searches.map((s) => ({ response: found(s) })) }));
    const first = searches.search(search('a'));
    expect(calls.map((c) => [c.kind, c.subjects])).toEqual([['one', ['a']]]);
    const rest = [searches.search(search('b')), searches.search(search('c', 'other')), searches.search(search('d'))];
    await tick();
    expect(calls).toHaveLength(1); // nothing joins a call already sent
    calls[0]!.finish();
    expect((await first).events[0]!.subject).toBe('acc/a');
    await tick();
    expect(calls.map((c) => [c.kind, c.subjects])).toEqual([
      ['one', ['a']],
      ['many', ['b', 'c', 'd']],
    ]);
    calls[1]!.finish();
    expect((await Promise.all(rest)).map((r) => r.events[0]!.subject)).toEqual(['acc/b', 'other/c', 'acc/d']);
  });

  it('sends a history search or a current search without scope on its own call, never holding a batch', async () => {
    const { calls, searches } = searchService((q) => ({ results: q.searches.map((s) => ({ response: found(s) })) }));
    const lone = searches.search(search('a'));
    const history = searches.search({ ...search('h'), current: false });
    const { scope: _scope, ...noScope } = search('s');
    const scopes = searches.search(noScope);
    expect(calls.map((c) => [c.kind, c.subjects])).toEqual([
      ['one', ['a']],
      ['one', ['h']],
      ['one', ['s']],
    ]);
    calls.forEach((c) => c.finish());
    expect((await Promise.all([lone, history, scopes])).map((r) => r.events[0]!.subject)).toEqual(['acc/a', 'acc/h', 'acc/s']);
  });

  it('fails only the searches the batch answered with a failure, as their own call would have (code, message, field errors)', async () => {
    const service = searchService((q) => ({
      results: q.searches.map((s) =>
        s.subject === 'bad'
          ? {
              failure: {
                code: Code.INVALID_ARGUMENT,
                message: 'cursor: is not a cursor of this search',
                fields: [{ field: 'cursor', message: 'is not a cursor of this search' }],
              },
            }
          : { response: found(s) },
      ),
    }));
    const [bad, good] = await Promise.allSettled(await batchedBehindOne(service, 'a', ['bad', 'good']));
    expect(good).toMatchObject({ status: 'fulfilled', value: { events: [{ subject: 'acc/good' }] } });
    expect(bad.status).toBe('rejected');
    const err = (bad as PromiseRejectedResult).reason as ServiceError;
    expect(err.code).toBe(Code.INVALID_ARGUMENT);
    expect(err.details).toBe('cursor: is not a cursor of this search');
    expect(fieldErrorsOf(err)).toEqual([{ field: 'cursor', message: 'is not a cursor of this search' }]);
  });

  it('sends the searches one by one to a consent service without the batch call (UNIMPLEMENTED: an older one during an upgrade), and fails them all with any other error of the call', async () => {
    const unimplemented = Object.assign(new Error('unimplemented'), { code: Code.UNIMPLEMENTED, details: 'unimplemented', metadata: new Metadata() });
    let outage = false;
    const down = Object.assign(new Error('unavailable'), { code: Code.UNAVAILABLE, details: 'unavailable', metadata: new Metadata() });
    const service = searchService(() => (outage ? down : unimplemented));
    const { calls } = service;
    const two = await batchedBehindOne(service, 'a', ['b', 'c']); // the batch: UNIMPLEMENTED
    await tick();
    expect(calls.map((c) => [c.kind, c.subjects])).toEqual([
      ['one', ['a']],
      ['many', ['b', 'c']],
      ['one', ['b']],
      ['one', ['c']],
    ]);
    calls[2]!.finish();
    calls[3]!.finish();
    expect((await Promise.all(two)).map((r) => r.events[0]!.subject)).toEqual(['acc/b', 'acc/c']);

    outage = true;
    await tick();
    for (const r of await Promise.allSettled(await batchedBehindOne(service, 'e', ['f', 'g'])))
      expect(r).toMatchObject({ status: 'rejected', reason: { code: Code.UNAVAILABLE } });
    expect(calls).toHaveLength(6);
  });
});
