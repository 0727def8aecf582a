/**
 * Consent target URLs of specifications: `{base_url}/dataprocessing/v0/dpspecs/<spec_id>`.
 */

export const SPEC_ID_PATTERN = /^[0-9a-f]{24}$/;
const SPEC_PATH = '/dataprocessing/v0/dpspecs/';

function trimSlash(s: string): string {
  return s.replace(/\/+$/, '');
}

export function specTargetUrl(baseUrl: string, specId: string): string {
  return `${trimSlash(baseUrl)}${SPEC_PATH}${specId}`;
}

/**
 * The spec id when `target` is a specification target URL of the deployment at `baseUrl`
 * (same scheme, host and port, case-insensitive host; no query or fragment), else null.
 */
export function parseSpecTarget(baseUrl: string, target: string): string | null {
  if (!URL.canParse(target)) return null;
  const base = new URL(baseUrl);
  const url = new URL(target);
  if (url.origin !== base.origin || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  const prefix = trimSlash(base.pathname) + SPEC_PATH;
  if (!url.pathname.startsWith(prefix)) return null;
  const id = url.pathname.slice(prefix.length);
  return SPEC_ID_PATTERN.test(id) ? id : null;
}
