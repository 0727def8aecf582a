/**
 * Preloaded into each service by `npm run bench:profile` (NODE_OPTIONS=--require …; Node refuses
 * --cpu-prof there): profiles the process from its start with V8's sampling profiler and writes
 * the profile to `$BENCH_CPU_PROF_DIR/<pid>.cpuprofile` when it exits (the inspector answers
 * synchronously on the main thread, so this works in an 'exit' handler).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
