import { testEnv } from '@accord/local-stack';
import { buildEvents, validateInputs } from '../src/domain/consent';
import { withRepositories } from './repositories';

const ev = (subject: string, target = 'https://shop.example/privacy') => ({ subject, issuer: 'https://shop.example', target, action: true });

describe('the size estimate of an export (X-Total-Count)', () => {
  it('falls back to the counters, marked inexact, when the count does not answer within its time budget', () =>
    withRepositories(testEnv('exporttotal').mongoUrl, async (repo, models) => {
      const events = buildEvents('acc', 'app', validateInputs([ev('a'), ev('b'), ev('a', 'https://shop.example/other')]));
      await repo.events.insertEvents(events, new Date(Date.now() + 60_000));
      await repo.statistics.count(events);
      expect(await repo.events.exportTotal({ accountId: 'acc', subject: 'a' }, 1000)).toEqual({ total: 2, exact: true });

      // a count that never answers (millions of events; a server that ignores maxTimeMS)
      const coll = models.events.collection as unknown as { countDocuments: unknown };
      const real = coll.countDocuments;
      coll.countDocuments = () => new Promise(() => undefined);
      try {
        const started = Date.now();
        // the counters ignore subject: an upper bound (all 3 events of the account)
        expect(await repo.events.exportTotal({ accountId: 'acc', subject: 'a' }, 50)).toEqual({ total: 3, exact: false });
        expect(await repo.events.exportTotal({ accountId: 'acc', target: 'https://shop.example/other', after: events[0]!.id }, 50)).toEqual({
          total: 1,
          exact: false,
        });
        expect(Date.now() - started).toBeLessThan(2000);
      } finally {
        coll.countDocuments = real;
      }
    }));
});
