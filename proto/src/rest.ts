// Hand-written beside the generated code: the REST JSON form of a consent event, shared by the
// gateway (REST answers, NDJSON export, webhook data) and the admin CLI's export, so both write
// the same lines.
import type { ConsentEvent } from './gen/accord/consent/v1/consent';

/** The REST JSON of a consent event (also the `data` of the NATS/webhook `consent` event). */
export function consentEventJson(ev: ConsentEvent): Record<string, unknown> {
  return {
    id: ev.id,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    ...(ev.source !== undefined ? { source: ev.source } : {}),
    scope: ev.scope,
    ...(ev.delegate !== undefined ? { delegate: ev.delegate } : {}),
    action: ev.action ?? null,
    token: ev.token,
    createdAt: ev.createdAt?.toISOString(),
    appId: ev.appId,
    ...(ev.targetVersion !== undefined ? { targetVersion: ev.targetVersion } : {}),
    ...(ev.expiresAt !== undefined ? { expiresAt: ev.expiresAt.toISOString() } : {}),
    ...(ev.expired ? { expired: true } : {}),
    ...(ev.renewalRequired ? { renewalRequired: true } : {}),
    ...(ev.erasedAt ? { erasedAt: ev.erasedAt.toISOString() } : {}),
  };
}
