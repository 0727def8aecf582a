import type { RequestHandler, Response } from 'express';
import type { Scope } from './auth';
import { compileTemplate } from './document-routing';

/** Console roles and what each may do: owner ⊃ developer ⊃ viewer. */
export type Role = 'owner' | 'developer' | 'viewer';

/**
 * What a consent session (a browser's token, minted by POST /consent/v0/sessions) may do on a
 * route, within its subject, issuer and group or targets (middleware/session-auth.ts checks it).
 * A route that declares none refuses every session.
 */
export type SessionRight =
  /** read the consent request of the session's own group */
  | 'group-consent-request'
  /** read the dashboard of the session's own group, for its own subject and issuer */
  | 'group-dashboard'
  /** read a specification that is one of the session's targets */
  | 'target-spec'
  /** search the states of its own subject and issuer (within its targets) */
  | 'own-states'
  /** record consent for its own subject and issuer, to its targets or its group's */
  | 'record-own';

/** Who may call a route. */
export type Permission =
  /** anyone: no credential is read */
  | { who: 'public' }
  /** an OAuth client with its credentials (the token endpoint checks them itself) */
  | { who: 'client' }
  /** an application's access token granted `scope`, with or without the account's x-api-key; a consent session only where `session` names its right */
  | { who: 'application'; scope: Scope; apiKey: 'required' | 'optional'; session?: SessionRight }
  /**
   * a console member (session cookie; changes need the CSRF token) of at least `role`;
   * `asApplication`: the route acts as one application of the account named in the path, which
   * is looked up (404) before the role is checked
   */
  | { who: 'console'; role: Role; asApplication?: true };

/** `METHOD /path` as the OpenAPI document spells it (HEAD is GET's). */
export type OperationKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** The declaration of the request's route, and its path parameters as sent (not yet decoded). */
export interface Declared {
  key: OperationKey;
  permission: Permission;
  params: Record<string, string>;
}

const DECLARED = 'declaredPermission';

/** The declaration that `declaredPermissions` found for this request (undefined: no declared route has its path). */
export function declaredPermission(res: Response): Declared | undefined {
  return res.locals[DECLARED] as Declared | undefined;
}

/**
 * Finds the declaration of the request's route in the table (routes/permissions.ts) once, at the
 * start, with the path templates compiled as the document's routes are (`compileTemplate`:
 * exact, case-sensitive, literal paths before templated ones), and leaves it for the checks that
 * enforce it: the scope and x-api-key (`authenticate`), a consent session's right (`sessionOr`),
 * the console member's role. No check compares the request's path itself.
 */
export function declaredPermissions(table: Record<OperationKey, Permission>): RequestHandler {
  const routes = Object.entries(table)
    .map(([key, permission]) => {
      const space = key.indexOf(' ');
      return { key: key as OperationKey, method: key.slice(0, space), permission, ...compileTemplate(key.slice(space + 1)) };
    })
    .sort((a, b) => a.params.length - b.params.length);
  return (req, res, next) => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const path = req.path;
    for (const r of routes) {
      if (r.method !== method) continue;
      const m = r.pattern.exec(path);
      if (!m) continue;
      res.locals[DECLARED] = {
        key: r.key,
        permission: r.permission,
        params: Object.fromEntries(r.params.map((name, i) => [name, m[i + 1]!])),
      } satisfies Declared;
      break;
    }
    next();
  };
}

/**
 * The one scope and x-api-key rule of the routes mounted under `prefix`: the mount authenticates
 * before any route is matched (an unknown path under it is still refused a wrong token), so every
 * declaration under it must agree, and the table is read for it.
 */
export function mountAccess(table: Record<OperationKey, Permission>, prefix: string): { scope: Scope; apiKey: 'required' | 'optional' } {
  const found = new Set<string>();
  let access: { scope: Scope; apiKey: 'required' | 'optional' } | undefined;
  for (const [key, p] of Object.entries(table)) {
    const path = key.slice(key.indexOf(' ') + 1);
    if (path !== prefix && !path.startsWith(`${prefix}/`)) continue;
    if (p.who !== 'application') throw new Error(`${key} is declared ${p.who}, but ${prefix} is mounted for application tokens`);
    access = { scope: p.scope, apiKey: p.apiKey };
    found.add(JSON.stringify(access));
  }
  if (!access || found.size !== 1)
    throw new Error(`The routes under ${prefix} must declare one scope and x-api-key rule; found ${[...found].join(', ') || 'none'}`);
  return access;
}
