import { reportSlowStart, slowStartReport, waitingThreads } from './slow-start';

const thread = (name: string, state: string, extra = '') =>
  `"${name}" #12 prio=5 os_prio=0 tid=0x1 nid=0x2 waiting for monitor entry\n   java.lang.Thread.State: ${state}\n\tat a.B.c(B.java:1)${extra}`;

describe('a slow service start', () => {
  it('reports a Java-level deadlock from the thread dump first', () => {
    const dump = [
      thread('nioEventLoopGroup-3-1', 'RUNNABLE'),
      'Found one Java-level deadlock:\n=============================\n"t1":\n  waiting to lock monitor 0x1',
    ].join('\n\n');
    expect(waitingThreads(dump)).toMatch(/^Found one Java-level deadlock:[\s\S]*waiting to lock monitor 0x1/);
  });

  it('else the threads blocked on a monitor, and only those', () => {
    const dump = [
      thread('worker-1', 'BLOCKED (on object monitor)', '\n\t- waiting to lock <0x5> (a Collection)'),
      thread('worker-2', 'RUNNABLE'),
      thread('worker-3', 'WAITING (parking)'),
    ].join('\n\n');
    const out = waitingThreads(dump);
    expect(out).toContain('"worker-1"');
    expect(out).not.toContain('"worker-2"');
    expect(out).not.toContain('"worker-3"');
    expect(waitingThreads(thread('worker-2', 'RUNNABLE'))).toMatch(/none blocked/);
  });

  it('names the service only, for a database that is not the local server', () => {
    expect(slowStartReport('the consent service of t_x', 'mongodb://db.example:27017/t_x')).toBe(
      '[testkit] the consent service of t_x has not started after 60 s',
    );
    expect(slowStartReport('the consent service of t_x', undefined)).toBe('[testkit] the consent service of t_x has not started after 60 s');
  });

  it('says when no local server answers on the port', () => {
    expect(slowStartReport('the oauth service of t_y', 'mongodb://127.0.0.1:1/t_y')).toMatch(
      /^\[testkit\] the oauth service of t_y has not started after 60 s; no/,
    );
  });

  it('reports after a minute only, and passes the start through', async () => {
    jest.useFakeTimers();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      let done!: (v: string) => void;
      const out = reportSlowStart('the gateway service of the stack s', undefined, new Promise<string>((r) => (done = r)));
      jest.advanceTimersByTime(59_999);
      expect(warn).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(warn).toHaveBeenCalledWith('[testkit] the gateway service of the stack s has not started after 60 s');
      done('started');
      await expect(out).resolves.toBe('started');
      await expect(reportSlowStart('x', undefined, Promise.reject(new Error('bind failed')))).rejects.toThrow('bind failed');
      jest.advanceTimersByTime(120_000);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
      jest.useRealTimers();
    }
  });
});
