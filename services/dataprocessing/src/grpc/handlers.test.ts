import { InvalidArgumentError, type CallContext } from '@accord/common';
import type { Registry } from '../app/registry';
import { dataProcessingHandlers } from './handlers';

/** A registry every method of which records that it was asked (and answers nothing). */
function recordingRegistry(asked: string[]): Registry {
  return new Proxy({} as Registry, {
    get: (_t, name) => (name === 'targetOf' ? () => 'https://t' : async () => void asked.push(String(name))),
  });
}

type AnyHandler = (req: Record<string, unknown>, ctx: CallContext) => Promise<unknown>;

describe('data processing gRPC handlers', () => {
  const asked: string[] = [];
  const handlers = dataProcessingHandlers(recordingRegistry(asked)) as unknown as Record<string, AnyHandler>;
  const accountless = ['listPendingRenewals', 'ackRenewal'];
  const named = Object.keys(handlers).filter((n) => !accountless.includes(n));
  beforeEach(() => (asked.length = 0));

  it('guard every RPC but the two accountless ones', () => {
    expect(named.length).toBeGreaterThanOrEqual(20);
  });

  it.each(named)('%s refuses a call without accountId before the registry is asked', async (name) => {
    await expect(handlers[name]!({ accountId: '', appId: 'app' }, {} as CallContext)).rejects.toMatchObject({
      constructor: InvalidArgumentError,
      fields: [{ field: 'accountId', message: 'is required' }],
    });
    expect(asked).toEqual([]);
  });

  it('refuses a write whose appId is empty, naming both fields at fault', async () => {
    await expect(handlers.createGroup!({ accountId: '', appId: '' }, {} as CallContext)).rejects.toMatchObject({
      fields: [
        { field: 'accountId', message: 'is required' },
        { field: 'appId', message: 'is required' },
      ],
    });
  });

  it.each(accountless)('%s (the consent service across accounts) names no account', async (name) => {
    await handlers[name]!({ limit: 1, specId: 's', version: 2 }, {} as CallContext).catch(() => undefined);
    expect(asked).toHaveLength(1);
  });
});
