import { testEnv } from '@accord/local-stack';
import { buildEvents, validateInputs } from '../src/domain/consent';
import { mongoOutboxStats } from '../src/store/outbox-stats';
import { withRepositories } from './repositories';

const ev = (subject: string) => ({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true });

describe('outbox metrics source', () => {
  it('counts the events not yet published and dates the oldest; published events leave the count', () =>
    withRepositories(testEnv('outboxstats').mongoUrl, async (repo, models) => {
      const stats = mongoOutboxStats(models);
      expect(await stats.pending()).toEqual({ count: 0, oldestStoredAt: null });

      const first = buildEvents('acc', 'app', validateInputs([ev('a'), ev('b')]));
      await repo.events.insertEvents(first, new Date(Date.now() + 60_000));
      await new Promise((r) => setTimeout(r, 5));
      const later = buildEvents('acc', 'app', validateInputs([ev('c')]));
      await repo.events.insertEvents(later, new Date(Date.now() + 60_000));

      const pending = await stats.pending();
      expect(pending.count).toBe(3);
      expect(pending.oldestStoredAt?.getTime()).toBe(first[0]!.createdAt.getTime());

      await repo.outbox.markPublished(first.map((e) => e.id));
      expect(await stats.pending()).toEqual({ count: 1, oldestStoredAt: later[0]!.createdAt });
    }));
});
