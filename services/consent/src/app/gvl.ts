import { readFileSync, statSync } from 'node:fs';
import type { Logger } from '@accord/common';
import { parseGvl, type Gvl } from '../domain/tcf-vendor';

/** How often the file's modification time is looked at (at most once per this many ms, when a decision asks). */
const RECHECK_MS = 1_000;

/**
 * The operator's Global Vendor List (`ACCORD_TCF_GVL`, the IAB's vendor-list.json format): nothing
 * is fetched at run time. Read when first asked, and again when its modification time or size
 * changes (checked at most once a second, when a decision asks); a file that no longer parses
 * keeps the list last read and logs why once per change.
 */
export class GvlFile {
  private gvl: Gvl | undefined;
  private seen = '';
  private checkedAt = 0;

  constructor(
    private readonly path: string | undefined,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {}

  get configured(): boolean {
    return !!this.path;
  }

  /** The current list (undefined: none configured, or none readable yet). */
  current(now: number = Date.now()): Gvl | undefined {
    if (!this.path || now - this.checkedAt < RECHECK_MS) return this.gvl;
    this.checkedAt = now;
    let mark: string;
    try {
      const st = statSync(this.path);
      mark = `${st.mtimeMs}:${st.size}`;
    } catch (err) {
      mark = 'missing';
      if (this.seen !== mark) this.logger.warn({ path: this.path, err: (err as Error).message }, 'TCF Global Vendor List unreadable (ACCORD_TCF_GVL)');
      this.seen = mark;
      return this.gvl;
    }
    if (mark === this.seen) return this.gvl;
    this.seen = mark;
    try {
      this.gvl = parseGvl(JSON.parse(readFileSync(this.path, 'utf8')));
      this.logger.info({ path: this.path, vendorListVersion: this.gvl.version, vendors: this.gvl.vendors.size }, 'TCF Global Vendor List loaded');
    } catch (err) {
      this.logger.warn({ path: this.path, err: (err as Error).message }, 'TCF Global Vendor List does not parse; keeping the one read before');
    }
    return this.gvl;
  }
}
