import type { Session } from './api.js';

/**
 * What every page receives from the shell (main.ts). Its own module, so that the pages and the
 * shell that imports them do not import each other.
 */
export interface PageContext {
  session: Session;
  /** True when the member may change things (developer or owner). */
  canChange: boolean;
  isOwner: boolean;
  /** The application chosen on the tokens and webhooks pages (kept across pages). */
  appId?: string;
  /** Reads the session again and redraws (after a change to the member's own role). */
  resync: () => Promise<void>;
}

/** A page: draws itself into `root`. */
export type Page = (root: HTMLElement, ctx: PageContext) => Promise<void> | void;
