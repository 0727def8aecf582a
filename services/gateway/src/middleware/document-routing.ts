import type { RequestHandler } from 'express';
import { decodedPathParam, HttpProblem, titleFor } from '../problem';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Route {
  template: string;
  pattern: RegExp;
  /** The names of the path's parameters, in order (the pattern captures each). */
  params: string[];
  /** Upper-case methods the document declares (HEAD added where GET is). */
  allow: string[];
  /** Media types (lower-case, no parameters) each method's request body may have. */
  bodyTypes: Map<string, string[]>;
}

/**
 * A path template of the document (`/dpgroups/{group_id}`) as a pattern matching its paths exactly as
 * the routers do (case-sensitive, no optional trailing slash: routes/router.ts), capturing each
 * parameter; the declarations of routes/permissions.ts are matched the same way.
 */
export function compileTemplate(template: string): { pattern: RegExp; params: string[] } {
  const params: string[] = [];
  const source = template
    .split('/')
    .map((seg) => {
      const param = /^\{([^}]+)\}$/.exec(seg);
      if (!param) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), params };
}

/**
 * The routes of an OpenAPI document, literal paths before templated ones (`/consents/search`
 * before `/consents/{id}`), each matching its path exactly as the routers do (case-sensitive,
 * no optional trailing slash: routes/router.ts).
 */
export function documentRoutes(doc: { paths: Record<string, Record<string, unknown>> }): Route[] {
  const routes = Object.entries(doc.paths).map(([template, item]) => {
    const methods = METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    const bodyTypes = new Map<string, string[]>();
    for (const m of METHODS) {
      const content = (item[m] as { requestBody?: { content?: Record<string, unknown> } } | undefined)?.requestBody?.content;
      if (content)
        bodyTypes.set(
          m.toUpperCase(),
          Object.keys(content).map((t) => t.toLowerCase()),
        );
    }
    return { template, ...compileTemplate(template), allow: methods, bodyTypes };
  });
  return routes.sort((a, b) => a.params.length - b.params.length);
}

/**
 * Answers from the OpenAPI document what no route needs to repeat: 405 with `Allow` for a method
 * a documented path does not declare (TRACE, OPTIONS other than a CORS preflight, PUT on a read-only resource…), 415 for
 * a body whose media type the operation does not accept, and 400 naming a path parameter whose
 * percent-escapes are not UTF-8 (Express would throw decoding it). Runs before authentication and body
 * parsing, so none of them costs anything for such requests. Paths the document lacks pass through
 * (404 later).
 */
export function documentRouting(doc: { paths: Record<string, Record<string, unknown>> }): RequestHandler {
  const routes = documentRoutes(doc);
  return (req, _res, next) => {
    // A CORS preflight is answered by the CORS middleware of the routes that allow browsers.
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) return next();
    let route: Route | undefined;
    let values: string[] = [];
    for (const r of routes) {
      const m = r.pattern.exec(req.path);
      if (m) {
        route = r;
        values = m.slice(1);
        break;
      }
    }
    if (!route) return next();
    try {
      route.params.forEach((name, i) => decodedPathParam(values[i]!, name));
    } catch (err) {
      return next(err);
    }
    if (!route.allow.includes(req.method)) {
      const allow = route.allow.join(', ');
      return next(new HttpProblem(405, titleFor(405), `${req.method} is not allowed here; allowed: ${allow}.`, [], { Allow: allow }));
    }
    const accepted = route.bodyTypes.get(req.method);
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (accepted && hasBody) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!accepted.includes(type)) {
        return next(new HttpProblem(415, titleFor(415), `The body must be ${accepted.join(' or ')}; this one is ${type || 'untyped'}.`));
      }
    }
    next();
  };
}
