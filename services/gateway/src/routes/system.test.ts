import { Writable } from 'node:stream';
import pino from 'pino';
import { readinessLog } from './system';

function capture() {
  const lines: Array<{ level: number; msg: string; waiting?: string[]; notServing?: string[] }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  return { lines, logger: pino({ level: 'debug' }, sink) };
}

describe('readiness in the log', () => {
  test('while the services start: one info line naming those not serving, one when all are — no warning', () => {
    const { lines, logger } = capture();
    const probe = readinessLog(logger);
    probe({ oauth: false, consent: false });
    probe({ oauth: true, consent: false }); // still not ready: no new line
    probe({ oauth: true, consent: false });
    probe({ oauth: true, consent: true });
    probe({ oauth: true, consent: true });
    expect(lines.map(({ level, msg, waiting }) => ({ level, msg, waiting }))).toEqual([
      { level: 30, msg: 'not ready yet: waiting for services', waiting: ['oauth', 'consent'] },
      { level: 30, msg: 'ready: every service is serving', waiting: undefined },
    ]);
  });

  test('readiness lost after it was reached is a warning naming the service, and its return an info line', () => {
    const { lines, logger } = capture();
    const probe = readinessLog(logger);
    probe({ oauth: true, consent: true });
    probe({ oauth: true, consent: false });
    probe({ oauth: true, consent: true });
    expect(lines.map(({ level, msg, notServing }) => ({ level, msg, notServing }))).toEqual([
      { level: 30, msg: 'ready: every service is serving', notServing: undefined },
      { level: 40, msg: 'not ready: services not serving', notServing: ['consent'] },
      { level: 30, msg: 'ready: every service is serving', notServing: undefined },
    ]);
  });
});
