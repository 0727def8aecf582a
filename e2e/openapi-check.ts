/**
 * Checks an HTTP answer against the OpenAPI document's responses: the operation must declare
 * the status, the content type must be one it declares for that status, and a JSON body must
 * match its schema. The e2e harness runs it on every answer, so an undocumented status, type or
 * field fails the test that met it (instead of hand-kept lists of paths).
 */
import { buildDocument } from '../services/gateway/src/openapi';
import { validatorAt } from '../services/gateway/src/openapi/validate';

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
type PathItem = Record<string, { responses?: Responses }>;

const doc = buildDocument('http://localhost') as { paths: Record<string, PathItem> };

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

const routes = Object.keys(doc.paths)
  .map((template) => ({
    template,
    params: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(
      '^' +
        template
          .split('/')
          .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    ),
  }))
  .sort((a, b) => a.params - b.params);

/** The problems of one answer (empty when it is documented), or null when the document has no such operation. */
export function responseProblems(method: string, url: string, status: number, contentType: string | null, body: unknown): string[] | null {
  const path = new URL(url, 'http://localhost').pathname;
  const route = routes.find((r) => r.pattern.test(path));
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const op = route ? doc.paths[route.template]![m] : undefined;
  if (!route || !op?.responses) return null;
  const where = `${method} ${route.template} → ${status}`;
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => op.responses![k]);
  const response = statusKey ? op.responses[statusKey] : undefined;
  if (!response || !statusKey) return [`${where}: the document does not declare this status (declared: ${Object.keys(op.responses).join(', ')})`];
  if (!response.content || method.toUpperCase() === 'HEAD' || status === 204) return [];
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const media = response.content[type];
  if (!media) return [`${where}: content type "${type}" is not documented (documented: ${Object.keys(response.content).join(', ')})`];
  if (!media.schema || !/json/.test(type)) return [];
  const validate = validatorAt('/' + pointer('paths', route.template, m, 'responses', statusKey, 'content', type, 'schema'));
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message ?? 'is invalid'}`);
}
