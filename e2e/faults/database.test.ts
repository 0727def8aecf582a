/**
 * The database stopped for 20 s (ACCORD_FAULT_DB_OUTAGE_S) and started again with its data:
 * meanwhile every request fails fast with a 503 problem, or a consent POST with 504 "outcome
 * unknown" (none hangs past the gateway's deadline, no process exits), /readyz turns red, and
 * afterwards everything recovers by itself.
 */
import { eventually, sleep } from '@accord/testkit';
import { call, startFaultStack, THROUGH_FAULTS, type FaultStack } from './fault-stack';

const OUTAGE_MS = Number(process.env.ACCORD_FAULT_DB_OUTAGE_S ?? 20) * 1000;
/** The gateway's deadline for a downstream call. */
const DEADLINE_MS = 10_000;

describe('the database stopped, then started again', () => {
  let stack: FaultStack | undefined;
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it(
    'answers 503 problems fast while it is down, turns readiness red, and recovers by itself',
    async () => {
      stack = await startFaultStack('faultdb', { ownMongo: true });
      const acc = await stack.account('faultdb');
      const consent = (subject: string) => ({ subject, issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true });
      const before = await call(stack, acc, 'POST', '/consent/v0/consents', { json: consent('before') });
      expect(before.status).toBe(201);

      await stack.stopMongo();
      const answers: Array<{ what: string; status: number; ms: number; type: string }> = [];
      const readiness: number[] = [];
      const t0 = Date.now();
      for (let i = 0; Date.now() - t0 < OUTAGE_MS && i < 200; i++) {
        const round = await Promise.all([
          call(stack, acc, 'POST', '/consent/v0/consents', { json: consent(`during-${i}`) }).then((r) => ({ what: 'POST consent', ...r })),
          call(stack, acc, 'GET', `/consent/v0/consents/${before.body.id}`).then((r) => ({ what: 'GET consent', ...r })),
          call(stack, acc, 'GET', '/webhooks/v0', { token: 'webhooks' }).then((r) => ({ what: 'GET webhooks', ...r })),
        ]);
        answers.push(...round.map((r) => ({ what: r.what, status: r.status, ms: r.ms, type: String(r.body?.type ?? r.body).slice(0, 80) })));
        readiness.push((await fetch(`${stack.url}/readyz`).catch(() => undefined))?.status ?? 0);
        await sleep(500);
      }
      await stack.startMongo();
      const t1 = Date.now();
      const recovered = await eventually(
        async () => {
          const ready = (await fetch(`${stack!.url}/readyz`)).status === 200;
          return ready && (await call(stack!, acc, 'POST', '/consent/v0/consents', { json: consent('after') })).status === 201;
        },
        60_000,
        'the stack to take consents again',
        THROUGH_FAULTS,
      );
      const recoveryS = (Date.now() - t1) / 1000;
      const readAgain = await call(stack, acc, 'GET', `/consent/v0/consents/${before.body.id}`);

      const byStatus: Record<string, number> = {};
      for (const a of answers) byStatus[`${a.what} ${a.status}`] = (byStatus[`${a.what} ${a.status}`] ?? 0) + 1;
      const figures = {
        outageS: OUTAGE_MS / 1000,
        requests: answers.length,
        byStatus,
        slowestMs: Math.max(...answers.map((a) => a.ms)),
        readinessRed: readiness.filter((r) => r === 503).length,
        readinessChecks: readiness.length,
        recoveryS,
        exits: stack.exits,
      };
      console.log(`[fault] database outage: ${JSON.stringify(figures)}`);

      // The first requests may still be answered from before the outage was noticed; none may be
      // a 500 or hang. A POST is refused (503), or answered "outcome unknown" (504) when the
      // consent service could not even fence its insert (docs/reliability.md, Consent writes):
      // then it is stored whole or not at all.
      const expected = (a: (typeof answers)[number]) =>
        a.status === 200 || a.status === 201 || a.status === 503 || (a.what === 'POST consent' && a.status === 504);
      expect(answers.filter((a) => !expected(a)).map((a) => `${a.what} ${a.status} ${a.type}`)).toEqual([]);
      const refused = (byStatus['POST consent 503'] ?? 0) + (byStatus['POST consent 504'] ?? 0);
      expect(refused).toBeGreaterThanOrEqual(2); // the outage was met, more than once
      expect(answers.filter((a) => a.status === 503).every((a) => a.type === 'urn:accord:problem:unavailable')).toBe(true);
      expect(answers.filter((a) => a.status === 504).every((a) => a.type === 'urn:accord:problem:timeout')).toBe(true);
      // a 504 is "outcome unknown" from the consent service, not the gateway's deadline passing
      // (the only answer whose status cannot tell them apart, so the only one timed)
      expect(answers.filter((a) => a.status === 504 && a.ms >= DEADLINE_MS).map((a) => `${a.what} ${a.ms} ms`)).toEqual([]);
      expect(readiness).toContain(503);
      expect(stack.exits).toEqual([]);
      expect(recovered).toBe(true);
      expect(readAgain.status).toBe(200); // the data survived the restart
    },
    OUTAGE_MS + 240_000,
  );
});
