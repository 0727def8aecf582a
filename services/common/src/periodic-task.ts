import type { Logger } from './logger';

export interface PeriodicTaskOptions<R> {
  /** One run of the work. Runs never overlap. */
  run(): Promise<R>;
  /**
   * The pause (ms) before the next run, from what this run resolved with (`undefined` when it
   * failed). Called after every run; a plan made while the run was under way (`runIn`) stands
   * instead of it.
   */
  next(result: R | undefined): number;
  logger: Pick<Logger, 'warn'>;
  /** Logged with the error when a run fails; the task goes on at `next(undefined)`. */
  failure: string;
}

/**
 * A background loop on one timer: runs `run`, then waits `next(result)` and runs it again, until
 * `stop`. Owners plan an earlier run with `runIn` (it replaces the planned one). A run never
 * overlaps another: a plan that falls due during a run starts a new run right after it. The
 * timer never keeps the process alive; `stop` cancels the plan and waits for a run under way.
 */
export class PeriodicTask<R> {
  private timer: NodeJS.Timeout | undefined;
  private at = Infinity;
  private busy = false;
  private dueWhileBusy = false;
  private halted = false;
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly opts: PeriodicTaskOptions<R>) {}

  /** Runs at once (in a timer callback, never inside the caller). */
  start(): void {
    this.runIn(0);
  }

  /** Plans the next run `ms` from now, replacing the plan there was. Ignored once stopped. */
  runIn(ms: number): void {
    if (this.halted) return;
    if (this.timer) clearTimeout(this.timer);
    this.at = Date.now() + ms;
    this.timer = setTimeout(this.fire, ms);
    this.timer.unref?.();
  }

  /** When the next run is planned (ms since the epoch); Infinity when none is (one under way with no plan after it, or stopped). */
  get plannedAt(): number {
    return this.at;
  }

  /** Whether a run is under way. */
  get running(): boolean {
    return this.busy;
  }

  /** Whether `stop` was called: a long run may check it to end early. */
  get stopped(): boolean {
    return this.halted;
  }

  /** No more runs; resolves when the run under way (if any) has ended. */
  async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
    await this.current;
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    this.at = Infinity;
    if (this.busy) {
      this.dueWhileBusy = true;
      return;
    }
    this.busy = true;
    this.current = this.runAndPlan();
  };

  private async runAndPlan(): Promise<void> {
    let result: R | undefined;
    try {
      result = await this.opts.run();
    } catch (err) {
      this.opts.logger.warn({ err }, this.opts.failure);
    }
    this.busy = false;
    const pause = this.opts.next(result);
    if (this.dueWhileBusy) {
      this.dueWhileBusy = false;
      this.runIn(0);
    } else if (this.at === Infinity) this.runIn(pause);
  }
}
