import { UnavailableError } from '@accord/common';
import { testEnv } from '@accord/local-stack';
import { Consents } from '../src/app/consents';
import type { SpecDetails } from '../src/domain/receipt';
import { openStore } from './store';

const A = { accountId: 'acc-renew', appId: 'app-renew' };
const SPEC = 'spec-renew-1';
const target = `urn:accord:dpspec:${SPEC}`;
const other = 'https://shop.example/privacy';

describe('renewalRequired: consents to a specification changed materially since (against the CI database)', () => {
  let close: () => Promise<void>;
  let consents: Consents;
  /** The specification as the data processing service would answer (mutable by the tests). */
  let spec: { version: number; reconsentSince: number } | 'unavailable';
  const warnings: unknown[] = [];

  beforeAll(async () => {
    const h = await openStore(testEnv('consentrenewal').mongoUrl);
    close = h.close;
    const specs = {
      lookup: async () => undefined,
      current: async (_accountId: string, specId: string): Promise<SpecDetails | undefined> => {
        if (spec === 'unavailable') throw new UnavailableError('data processing service unavailable');
        return specId === SPEC ? ({ id: SPEC, version: spec.version, reconsentSince: spec.reconsentSince } as SpecDetails) : undefined;
      },
      asOf: async () => undefined, // decisions in the past are not this suite's
    };
    consents = new Consents(
      h.store,
      { publishStored: () => undefined },
      { keys: [], settings: { baseUrl: 'https://accord.example' } as never, specs },
      { warn: (...args: unknown[]) => void warnings.push(args) },
    );
  });
  afterAll(async () => close?.());

  const current = async (subject: string, t = target) =>
    (await consents.search({ ...A, subject, issuer: 'https://shop.example', target: t, current: true })).events;

  test('flags current states whose version is older than the latest material one, and counts them per target', async () => {
    spec = { version: 1, reconsentSince: 1 };
    const [given] = await consents.create(A.accountId, A.appId, [{ subject: 'u1', issuer: 'https://shop.example', target, action: true }]);
    expect(given!.targetVersion).toBe(1);
    await consents.create(A.accountId, A.appId, [{ subject: 'u1', issuer: 'https://shop.example', target: other, action: true }]);
    expect((await current('u1'))[0]).not.toHaveProperty('renewalRequired');

    // a text edit: version 2, reconsentSince stays 1
    spec = { version: 2, reconsentSince: 1 };
    expect((await current('u1'))[0]).not.toHaveProperty('renewalRequired');

    // a material change: version 3 is the latest material one
    spec = { version: 3, reconsentSince: 3 };
    expect(await current('u1')).toEqual([expect.objectContaining({ id: given!.id, targetVersion: 1, renewalRequired: true })]);
    // so does GetCurrentStates (the dashboard); a target that is no specification never is
    const states = await consents.currentStates(A.accountId, 'u1', 'https://shop.example', [target, other]);
    expect(states.find((s) => s.target === target)).toMatchObject({ renewalRequired: true });
    expect(states.find((s) => s.target === other)).not.toHaveProperty('renewalRequired');

    // a consent to the new version is not due; nor is a renewal of the old state
    await consents.create(A.accountId, A.appId, [{ subject: 'u2', issuer: 'https://shop.example', target, action: false }]);
    expect((await current('u2'))[0]).toMatchObject({ targetVersion: 3 });
    expect((await current('u2'))[0]).not.toHaveProperty('renewalRequired');

    const stats = await consents.statistics(A.accountId, A.appId);
    expect(stats.targets.find((t) => t.target === target)).toMatchObject({ currentAccepted: 1, currentDeclined: 1, currentRenewalRequired: 1 });
    expect(stats.targets.find((t) => t.target === other)).toMatchObject({ currentAccepted: 1, currentRenewalRequired: 0 });

    await consents.create(A.accountId, A.appId, [{ subject: 'u1', issuer: 'https://shop.example', target, action: true }]);
    expect((await current('u1'))[0]).not.toHaveProperty('renewalRequired');
    expect((await consents.statistics(A.accountId, A.appId)).targets.find((t) => t.target === target)).toMatchObject({ currentRenewalRequired: 0 });
  });

  test('when the data processing service cannot answer, reads still answer, without the flag, and say so in the log', async () => {
    spec = { version: 1, reconsentSince: 1 };
    await consents.create(A.accountId, A.appId, [{ subject: 'u3', issuer: 'https://shop.example', target, action: true }]);
    spec = 'unavailable';
    warnings.length = 0;
    const [state] = await current('u3');
    expect(state).toMatchObject({ targetVersion: 1 });
    expect(state).not.toHaveProperty('renewalRequired');
    expect(JSON.stringify(warnings)).toMatch(/renewalRequired not computed/);
  });
});
