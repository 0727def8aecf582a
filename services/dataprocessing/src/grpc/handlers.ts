import type { CallContext, Handlers } from '@accord/common';
import type { dataprocessingv1 as pb } from '@accord/proto';
import type { Registry } from '../app/registry';
import { requireCaller } from '../domain/validate';
import { consentRequestToPb, dashboardToPb, groupToPb, specFieldsFromPb, specForConsentToPb, specToPb, textToPb, versionToPb } from './mapping';

export type DataProcessingHandlers = Handlers<pb.DataProcessingServiceServer>;

/** The calls that name no caller: the consent service's side of the renewal signal, across accounts. */
const ACCOUNTLESS: ReadonlySet<string> = new Set<keyof DataProcessingHandlers>(['listPendingRenewals', 'ackRenewal']);

/** Checks the caller of every call (domain/validate.ts, requireCaller; but the accountless ones) before its handler runs: a handler added later cannot forget it. */
function checkingCallers(handlers: DataProcessingHandlers): DataProcessingHandlers {
  const out: Record<string, (req: { accountId: string; appId?: string }, ctx: CallContext) => Promise<unknown>> = {};
  for (const [name, handle] of Object.entries(handlers as unknown as typeof out)) {
    out[name] = ACCOUNTLESS.has(name)
      ? handle
      : async (req, ctx) => {
          requireCaller(req);
          return handle(req, ctx);
        };
  }
  return out as unknown as DataProcessingHandlers;
}

/** gRPC handlers: proto in, registry call, proto out. */
export function dataProcessingHandlers(registry: Registry): DataProcessingHandlers {
  const spec = (s: Parameters<typeof specToPb>[0]) => specToPb(s, registry.targetOf(s.id));
  return checkingCallers({
    async createGroup(req) {
      return groupToPb(await registry.createGroup(req.accountId, req.appId, req.fields ?? {}));
    },
    async getGroup(req) {
      return groupToPb(await registry.getGroup(req.accountId, req.id));
    },
    async listGroups(req) {
      const { groups, nextCursor } = await registry.listGroups(req.accountId, req.page);
      return { groups: groups.map(groupToPb), nextCursor };
    },
    async updateGroup(req) {
      return groupToPb(await registry.updateGroup(req.accountId, req.id, req.fields ?? {}, req.updateMask));
    },
    async deleteGroup(req) {
      await registry.deleteGroup(req.accountId, req.appId, req.id);
      return {};
    },

    async createSpec(req) {
      return spec(await registry.createSpec(req.accountId, req.appId, req.groupId, specFieldsFromPb(req.fields), req.texts));
    },
    async getSpec(req) {
      return spec(await registry.getSpec(req.accountId, req.id));
    },
    async listSpecs(req) {
      const { specs, nextCursor } = await registry.listSpecs(req.accountId, req.groupId, req.page);
      return { specs: specs.map(spec), nextCursor };
    },
    async updateSpec(req) {
      return spec(
        await registry.updateSpec(
          req.accountId,
          req.appId,
          req.id,
          specFieldsFromPb(req.fields),
          req.updateMask,
          req.expectedVersion,
          req.requiresReconsent ?? false,
        ),
      );
    },
    async deleteSpec(req) {
      await registry.deleteSpec(req.accountId, req.appId, req.id);
      return {};
    },
    async listSpecVersions(req) {
      const versions = await registry.listVersions(req.accountId, req.specId);
      return { versions: versions.map((v) => versionToPb(v, registry.targetOf(req.specId))) };
    },
    async getSpecVersion(req) {
      return versionToPb(await registry.getVersion(req.accountId, req.specId, req.version), registry.targetOf(req.specId));
    },

    async createText(req) {
      return textToPb(await registry.createText(req.accountId, req.appId, req.specId, req.fields ?? {}));
    },
    async listTexts(req) {
      return { texts: (await registry.listTexts(req.accountId, req.specId)).map(textToPb) };
    },
    async getText(req) {
      return textToPb(await registry.getText(req.accountId, req.specId, req.textId));
    },
    async updateText(req) {
      return textToPb(await registry.updateText(req.accountId, req.appId, req.specId, req.textId, req.fields ?? {}, req.updateMask));
    },
    async deleteText(req) {
      await registry.deleteText(req.accountId, req.appId, req.specId, req.textId);
      return {};
    },

    async getSpecForConsent(req) {
      const { spec: s, group, target } = await registry.specForConsent(req.accountId, req.specId, req.version, req.at);
      return specForConsentToPb(s, group, target);
    },
    async resolveTarget(req) {
      const found = await registry.resolveTarget(req.accountId, req.target);
      if (!found) return { isSpecTarget: false, specId: '' };
      const { spec: s, group, target } = found.resolved;
      return { isSpecTarget: true, specId: found.specId, spec: specForConsentToPb(s, group, target) };
    },

    async listPendingRenewals(req) {
      return { renewals: await registry.pendingRenewals(req.limit || 100) };
    },
    async ackRenewal(req) {
      await registry.ackRenewal(req.specId, req.version);
      return {};
    },

    async getGroupPolicy(req) {
      return registry.policy(req.accountId, req.groupId, req.language, req.textType);
    },
    async getConsentRequest(req) {
      return consentRequestToPb(
        await registry.consentRequest(req.accountId, req.groupId, req.language, req.textType, { jurisdiction: req.jurisdiction ?? '', gpc: req.gpc ?? false }),
      );
    },
    async getDashboard(req) {
      const { request, items } = await registry.dashboard(req.accountId, req.groupId, req.subject, req.issuer, req.language, req.textType, {
        jurisdiction: req.jurisdiction ?? '',
        gpc: req.gpc ?? false,
      });
      return dashboardToPb(request, items, req.subject, req.issuer);
    },
  });
}
