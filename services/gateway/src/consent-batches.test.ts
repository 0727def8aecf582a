import { Metadata, status as Code, type ServiceError } from '@grpc/grpc-js';
import { FIELD_ERRORS_KEY } from '@accord/common';
import type { consentv1 } from '@accord/proto';
import { ConsentBatches, fieldErrorsByEvent } from './consent-batches';
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
