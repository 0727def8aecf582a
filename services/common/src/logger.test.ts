import { createLogger, defaultLogFormat, prettyLine } from './logger';

const at = (hh: number, mm: number) => new Date(2026, 0, 2, hh, mm, 3, 45).toISOString();

describe('pretty log lines', () => {
  test('an event is its time, level and message, then its fields as key=value', () => {
    const line = prettyLine(
      JSON.stringify({ level: 30, time: at(9, 5), service: 'consent', pid: 1, hostname: 'h', db: 'accord', msg: 'connected to MongoDB' }),
    );
    expect(line).toBe('09:05:03.045 INFO  connected to MongoDB db=accord');
  });

  test('an access line reads method, path, status and time, without its ids', () => {
    const record = {
      level: 30,
      time: at(12, 0),
      service: 'gateway',
      requestId: 'r1',
      method: 'POST',
      path: '/consent/v0/consents',
      status: 201,
      durationMs: 12.4,
      accountId: 'a1',
      appId: 'p1',
      msg: 'request',
    };
    expect(prettyLine(JSON.stringify(record))).toBe('12:00:03.045 INFO  POST /consent/v0/consents 201 12ms');
  });

  test('a warning adds its request id; an error its message and, below, its stack', () => {
    expect(prettyLine(JSON.stringify({ level: 40, time: at(1, 2), requestId: 'r2', msg: 'slow', took: 'a b' }))).toBe(
      '01:02:03.045 WARN  slow took="a b" requestId=r2',
    );
    const err = new Error('boom');
    const text = prettyLine(
      JSON.stringify({ level: 50, time: at(1, 2), err: { type: 'Error', message: err.message, stack: err.stack }, msg: 'request failed' }),
    );
    const [first, second] = text.split('\n');
    expect(first).toBe('01:02:03.045 ERROR request failed error=boom');
    expect(second).toBe('    Error: boom');
  });

  test('a line that is not JSON passes through', () => {
    expect(prettyLine('plain text\n')).toBe('plain text');
  });

  test('a pretty logger writes one human line per record to stdout, secrets still redacted', () => {
    const out: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
    try {
      createLogger('test', 'info', 'pretty').info({ apiKey: 'ak_secret', n: 1 }, 'hello');
    } finally {
      spy.mockRestore();
    }
    expect(out).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}hello apiKey=\[redacted\] n=1\n$/)]);
  });

  test('without LOG_FORMAT, lines are pretty on a terminal and JSON otherwise', () => {
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    try {
      Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
      expect(defaultLogFormat()).toBe('pretty');
      Object.defineProperty(process.stdout, 'isTTY', { value: undefined, configurable: true });
      expect(defaultLogFormat()).toBe('json');
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
  });
});
