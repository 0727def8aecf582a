import { connectMongo } from '@accord/common';
import { testLogger } from '@accord/testkit';
import { defineModels, type Models } from '../src/store/models';
import { consentRepositories, type ConsentRepositories } from '../src/store/repositories';

/** Runs `body` with the consent repositories (and their models) on a connection of its own to `mongoUrl`, closed after, passed or failed. */
export async function withRepositories(mongoUrl: string, body: (repo: ConsentRepositories, models: Models) => Promise<void>): Promise<void> {
  const conn = await connectMongo(mongoUrl, testLogger('t'));
  try {
    const models = defineModels(conn);
    await body(consentRepositories(models, { publishLeaseMs: 30_000 }), models);
  } finally {
    await conn.close();
  }
}
