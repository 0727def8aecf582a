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

/** Bytes of a body sent so far, and of the whole body. */
export interface Sent {
  loaded: number;
  total: number;
}

/**
 * Sends a file as the body of a console API request (XMLHttpRequest: fetch reports no upload
 * progress), with the CSRF header; `onSent` follows the bytes sent, `onBodySent` fires once the
 * last byte has left (the answer may come later: the server may still be working on the body).
 * Problems are errors as with `api`; a connection lost before any answer is an ApiError of status 0.
 */
export function upload<T = unknown>(
  path: string,
  file: Blob,
  contentType: string,
  on: { onSent?: (s: Sent) => void; onBodySent?: () => void } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/console/api${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', contentType);
    xhr.setRequestHeader('x-csrf-token', csrfToken);
    xhr.upload.onprogress = (e) => on.onSent?.({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.upload.onload = () => on.onBodySent?.();
    xhr.onerror = () => reject(new ApiError(0, { title: 'The connection closed before an answer came.' }));
    xhr.onabort = xhr.onerror;
    xhr.onload = () => {
      const type = xhr.getResponseHeader('content-type') ?? '';
      let data: unknown = xhr.responseText;
      try {
        if (xhr.responseText && /json/.test(type)) data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON after all: keep the text
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T);
      if (xhr.status === 401) onSignedOut();
      reject(new ApiError(xhr.status, typeof data === 'object' && data ? data : { title: `HTTP ${xhr.status}` }));
    };
    xhr.send(file);
  });
}
