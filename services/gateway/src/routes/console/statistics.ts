import type { Request, RequestHandler, Response, Router } from 'express';
import type { consentv1 } from '@accord/proto';
import type { GatewayContext } from '../../context';
import { validateQuery } from '../../openapi/validate';
import { HttpProblem } from '../../problem';
import { strictRouter } from '../router';

const csvCell = (v: string | number) => {
  const s = String(v);
  // Quote what needs it, and defuse spreadsheet formulas (a target could start with =, +, -, @).
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * /console/api/applications/:appId/statistics[.csv]: events per day by action over a date
 * range, current accepted/declined per target and the top targets (JSON), or the daily counts
 * and the per-target states as CSV — the consent service's GetActivityReport, which defaults the
 * range (the last 30 days, UTC) and picks the top targets, rendered.
 */
export function consoleStatisticsRoutes(ctx: GatewayContext, asApplication: RequestHandler): Router {
  const r = strictRouter();
  /** The consent service's report (it fills in the range's defaults and picks the top targets); the per-target columns the console shows. */
  const load = async (req: Request, res: Response) => {
    const auth = req.auth!;
    const q = res.locals.query as { from?: string; to?: string };
    const report = await ctx.clients.consentActivity.getActivityReport({
      accountId: auth.accountId,
      appId: auth.appId,
      ...(q.from ? { fromDay: q.from } : {}),
      ...(q.to ? { toDay: q.to } : {}),
    });
    const columns = (t: consentv1.TargetStatistics) => ({
      target: t.target,
      events: t.events,
      currentAccepted: t.currentAccepted,
      currentDeclined: t.currentDeclined,
      currentNoAction: t.currentNoAction,
    });
    return { report, from: report.fromDay, to: report.toDay, targets: report.statistics?.targets.map(columns) ?? [], top: report.topTargets.map(columns) };
  };

  r.get('/applications/:appId/statistics', asApplication, validateQuery('ConsoleStatisticsQuery'), async (req, res) => {
    const { report, from, to, targets, top } = await load(req, res);
    const stats = report.statistics ?? { total: 0, accepted: 0, declined: 0, noAction: 0, distinctSubjects: 0 };
    res.json({
      from,
      to,
      days: report.days,
      truncated: report.truncated,
      totals: { events: stats.total, accepted: stats.accepted, declined: stats.declined, noAction: stats.noAction, distinctSubjects: stats.distinctSubjects },
      targets,
      topTargets: top,
    });
  });

  r.get('/applications/:appId/statistics.csv', asApplication, validateQuery('ConsoleStatisticsQuery'), async (req, res) => {
    const { report: daily, from, to, targets } = await load(req, res);
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
