import { connectMongo } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import type { Connection } from 'mongoose';
import { buildEvents, validateInputs } from '../src/domain/consent';
import { defineModels } from '../src/store/models';
import { mongoOutboxStats } from '../src/store/outbox-stats';
import { consentRepositories } from '../src/store/repositories';
import { testLogger } from '@accord/testkit';

const ev = (subject: string) => ({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true });

describe('outbox metrics source', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connectMongo(testEnv('outboxstats').mongoUrl, testLogger('t'));
  });
  afterAll(async () => conn.close());

  it('counts the events not yet published and dates the oldest; published events leave the count', async () => {
    const models = defineModels(conn);
    const repo = consentRepositories(models, { publishLeaseMs: 30_000 });
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
  });
});
