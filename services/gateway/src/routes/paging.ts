import type { Response } from 'express';
import type { GatewayContext } from '../context';

/**
 * A paged list's next page, as a `Link: <…>; rel="next"` header (none on the last page): the
 * list's path under the public base URL, the query the next page repeats (string values only;
 * a `cursor` in it is dropped) and the next page's cursor, last.
 */
export function setNextPageLink(res: Response, ctx: GatewayContext, path: string, query: Record<string, unknown>, nextCursor: string): void {
  if (!nextCursor) return;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (k !== 'cursor' && typeof v === 'string') params.set(k, v);
  params.set('cursor', nextCursor);
  res.setHeader('Link', `<${ctx.baseUrl}${path}?${params.toString()}>; rel="next"`);
}
