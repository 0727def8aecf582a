import { Metadata } from '@grpc/grpc-js';
import { createClient } from '@accord/common';
import { oauthconsolev1 } from '@accord/proto';

/** What the console helpers need of a running stack (e2e/harness.ts's Stack). */
export interface ConsoleStack {
  env: Record<string, string>;
  request(method: string, path: string, opts?: { json?: unknown; headers?: Record<string, string> }): Promise<ConsoleAnswer>;
}

export interface ConsoleAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the answers they expect
  body: any;
}

export interface ConsoleUser {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: { account: { id: string; name: string }; member: { id: string; name: string; role: string } };
}

// Signing in to the console API as the browser does, for the console's component and browser tests.

/** A one-time console link token, as `npm run -s admin -- console-link` makes it. */
export async function consoleLink(stack: ConsoleStack, account: string, member = 'owner', role = 'owner'): Promise<string> {
  const client = createClient(oauthconsolev1.OAuthConsoleServiceService, stack.env.ACCORD_OAUTH_ADDR!);
  const md = new Metadata();
  md.set('authorization', `Bearer ${stack.env.ACCORD_ADMIN_TOKEN}`);
  try {
    return (await client.createConsoleLink({ accountName: account, memberName: member, role, ttlSeconds: 0 }, { metadata: md })).token;
  } finally {
    client.close();
  }
}

/** Signs in through the console API with a fresh link; returns the session cookie and CSRF token. */
export async function signIn(stack: ConsoleStack, account: string, member = 'owner', role = 'owner'): Promise<ConsoleUser> {
  const link = await consoleLink(stack, account, member, role);
  const res = await stack.request('POST', '/console/api/session', { json: { link } });
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0]!, csrf: res.body.csrfToken, setCookie, body: res.body };
}

/** A console API call as the browser makes it: the cookie, and the CSRF header on changes (unless csrf: false). */
export function asUser(stack: ConsoleStack, user: ConsoleUser) {
  return (method: string, path: string, json?: unknown, o: { csrf?: string | false; headers?: Record<string, string> } = {}): Promise<ConsoleAnswer> => {
    const headers: Record<string, string> = { cookie: user.cookie, ...o.headers };
    const csrf = o.csrf === undefined ? user.csrf : o.csrf;
    if (method !== 'GET' && csrf !== false) headers['x-csrf-token'] = csrf;
    return stack.request(method, `/console/api${path}`, { json, headers });
  };
}
