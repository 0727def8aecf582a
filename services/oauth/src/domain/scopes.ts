/** The scopes an application can be granted; each guards one REST base of the gateway. */
export const ALL_SCOPES = ['consent', 'dataprocessing', 'webhooks'] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), separated by single spaces. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export type ScopeParse = { ok: true; scopes: string[] } | { ok: false; reason: string };

/**
 * Parses a space-separated scope parameter. Repeated scopes are accepted once; the order of
 * first appearance is kept. An empty parameter gives an empty list (meaning "the default").
 */
export function parseScopeParam(param: string): ScopeParse {
  const trimmed = param.trim();
  if (!trimmed) return { ok: true, scopes: [] };
  const out: string[] = [];
  for (const token of trimmed.split(/[ \t]+/)) {
    if (!SCOPE_TOKEN.test(token)) return { ok: false, reason: 'scope contains characters that RFC 6749 does not allow' };
    if (!out.includes(token)) out.push(token);
  }
  return { ok: true, scopes: out };
}

/**
 * The scopes to grant: the requested ones when every one of them is within `allowed`, or all of
 * `allowed` when none was requested. Returns the scopes outside `allowed` otherwise.
 */
export function grantScopes(requested: readonly string[], allowed: readonly string[]): { ok: true; scopes: string[] } | { ok: false; notAllowed: string[] } {
  if (requested.length === 0) return { ok: true, scopes: canonicalScopes(allowed) };
  const notAllowed = requested.filter((s) => !allowed.includes(s));
  if (notAllowed.length) return { ok: false, notAllowed };
  return { ok: true, scopes: canonicalScopes(requested) };
}

/** Scopes in the fixed order of ALL_SCOPES (unknown ones last, sorted), without repeats. */
export function canonicalScopes(scopes: readonly string[]): string[] {
  const unique = [...new Set(scopes)];
  const rank = (s: string) => {
    const i = (ALL_SCOPES as readonly string[]).indexOf(s);
    return i === -1 ? ALL_SCOPES.length : i;
  };
  return unique.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Validates the scopes an administrator gives an application; empty means all scopes. */
export function applicationScopes(scopes: readonly string[]): { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] } {
  const cleaned = scopes.map((s) => s.trim()).filter(Boolean);
  if (!cleaned.length) return { ok: true, scopes: [...ALL_SCOPES] };
  const unknown = cleaned.filter((s) => !isScope(s));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, scopes: canonicalScopes(cleaned) as Scope[] };
}
