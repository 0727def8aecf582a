import { type Router, type Request, type RequestHandler } from 'express';
import type { GatewayContext } from '../../context';
import { validateQuery } from '../../openapi/validate';
import { HttpProblem } from '../../problem';
import { strictRouter } from '../router';

const DAY_MS = 86_400_000;
const TOP_TARGETS = 10;

/** The range of the query, defaulting to the last 30 days (UTC). */
function range(res: { locals: Record<string, unknown> }): { from: string; to: string } {
  const q = res.locals.query as { from?: string; to?: string };
  const to = q.to ?? new Date().toISOString().slice(0, 10);
  const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  return { from, to };
}

const csvCell = (v: string | number) => {
  const s = String(v);
  // Quote what needs it, and defuse spreadsheet formulas (a target could start with =, +, -, @).
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * /console/api/applications/:appId/statistics[.csv]: events per day by action over a date
 * range, current accepted/declined per target and the top targets (JSON), or the daily counts
 * and the per-target states as CSV.
 */
export function consoleStatisticsRoutes(ctx: GatewayContext, asApplication: RequestHandler): Router {
  const r = strictRouter();
  const load = async (req: Request, from: string, to: string) => {
    const auth = req.auth!;
    const [daily, stats] = await Promise.all([
      ctx.clients.consentActivity.getDailyActivity({ accountId: auth.accountId, appId: auth.appId, fromDay: from, toDay: to }),
      ctx.clients.consent.getStatistics({ accountId: auth.accountId, appId: auth.appId }),
    ]);
    const targets = stats.targets.map((t) => ({
      target: t.target,
      events: t.events,
      currentAccepted: t.currentAccepted,
      currentDeclined: t.currentDeclined,
      currentNoAction: t.currentNoAction,
    }));
    return { daily, stats, targets };
  };

  r.get('/applications/:appId/statistics', asApplication, validateQuery('ConsoleStatisticsQuery'), async (req, res) => {
    const { from, to } = range(res);
    const { daily, stats, targets } = await load(req, from, to);
    res.json({
      from,
      to,
      days: daily.days,
      truncated: daily.truncated,
      totals: { events: stats.total, accepted: stats.accepted, declined: stats.declined, noAction: stats.noAction, distinctSubjects: stats.distinctSubjects },
      targets,
      topTargets: [...targets].sort((a, b) => b.events - a.events || a.target.localeCompare(b.target)).slice(0, TOP_TARGETS),
    });
  });

  r.get('/applications/:appId/statistics.csv', asApplication, validateQuery('ConsoleStatisticsQuery'), async (req, res) => {
    const { from, to } = range(res);
    const { daily, targets } = await load(req, from, to);
    if (daily.truncated)
      throw new HttpProblem(400, 'Bad request', 'The range holds too many events for one export; choose a shorter range.', [
        { field: 'from', message: 'range too large' },
      ]);
    const lines = [
      'day,accepted,declined,no_action',
      ...daily.days.map((d) => [d.day, d.accepted, d.declined, d.noAction].join(',')),
      '',
      'target,events,current_accepted,current_declined,current_no_action',
      ...targets.map((t) => [csvCell(t.target), t.events, t.currentAccepted, t.currentDeclined, t.currentNoAction].join(',')),
    ];
    res
      .type('text/csv; charset=utf-8')
      .attachment(`accord-statistics-${from}-${to}.csv`)
      .send(lines.join('\r\n') + '\r\n');
  });
  return r;
}
