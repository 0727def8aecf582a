/** The console API client: same-origin fetch with the session cookie, the CSRF header on changes, problems as errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: { title?: string; detail?: string; errors?: Array<{ field: string; message: string }> },
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

export interface Session {
  account: { id: string; name: string };
  member: { id: string; name: string; role: 'owner' | 'developer' | 'viewer' };
  csrfToken: string;
  expiresAt: string;
  idleExpiresAt: string;
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

export function setSession(s: Session | null): void {
  csrfToken = s?.csrfToken ?? '';
}
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/console/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await res.text();
  const data = text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  if (!res.ok) {
    if (res.status === 401 && path !== '/session') onSignedOut();
    throw new ApiError(res.status, typeof data === 'object' && data ? data : { title: `HTTP ${res.status}` });
  }
  return data as T;
}
