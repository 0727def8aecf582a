import type { consentv1 } from '@accord/proto';
import { copyOptionalFields, type ConsentEvent } from './consent';

/**
 * A consent event as the `accord.consent.v1.ConsentEvent` message: what the gRPC API answers and
 * what every bus event about an event carries (`consent`, `consent.expired`,
 * `consent.renewal_required`), so both adapters render an event the same way.
 */
export function eventMessage(ev: ConsentEvent): consentv1.ConsentEvent {
  const out: consentv1.ConsentEvent = {
    id: ev.id,
    subject: ev.subject,
    issuer: ev.issuer,
    target: ev.target,
    scope: ev.scope,
    token: ev.token,
    createdAt: ev.createdAt,
    appId: ev.appId,
  };
  copyOptionalFields(out, ev);
  if (ev.action !== null) out.action = ev.action;
  if (ev.expired) out.expired = true;
  if (ev.renewalRequired) out.renewalRequired = true;
  if (ev.erasedAt) out.erasedAt = ev.erasedAt;
  if (ev.gpc !== undefined) out.gpc = ev.gpc;
  if (ev.tcString !== undefined) out.tcString = ev.tcString;
  if (ev.tcf) out.tcf = ev.tcf;
  if (ev.gppString !== undefined) out.gppString = ev.gppString;
  if (ev.gpp) out.gpp = ev.gpp;
  if (ev.jurisdiction !== undefined) out.jurisdiction = ev.jurisdiction;
  if (ev.addtlConsent !== undefined) out.addtlConsent = ev.addtlConsent;
  return out;
}
