import { ConflictError } from '@accord/common';
import { memoryOAuthStore } from '../store/memory/store';
import { ConsoleCore } from './console';
import type { OAuthStore } from './ports';

/**
 * The rule "an account keeps an owner" under a concurrent change: the store has no transactions,
 * so a change checked against a count that another request then invalidates must be undone.
 * The store plays that other request: right after the first owner count, it demotes (or removes)
 * the other owner, as a concurrent console request would.
 */
async function setup(concurrent: (store: OAuthStore) => Promise<unknown>) {
  const store = memoryOAuthStore();
  for (const id of ['a', 'b']) await store.members.insert({ id, accountId: 'acc', name: id, role: 'owner', subject: null, createdAt: new Date(0) });
  let counts = 0;
  const racing: OAuthStore = {
    ...store,
    members: {
      ...store.members,
      async countOwners(accountId) {
        const n = await store.members.countOwners(accountId);
        if (counts++ === 0) await concurrent(store); // the other request lands between this check and the change
        return n;
      },
    },
  };
  const core = new ConsoleCore({ store: racing, oauth: {} as never, crypto: {} as never });
  return { core, store };
}

describe('the last owner under concurrent changes', () => {
  it('a demotion that a concurrent demotion left ownerless is undone and refused as a conflict', async () => {
    const { core, store } = await setup((s) => s.members.setRole('acc', 'b', 'developer'));
    await expect(core.updateMemberRole('acc', 'a', 'developer')).rejects.toBeInstanceOf(ConflictError);
    expect((await store.members.get('acc', 'a'))?.role).toBe('owner');
  });

  it('a removal that a concurrent removal left ownerless is undone and refused as a conflict', async () => {
    const { core, store } = await setup((s) => s.members.delete('acc', 'b'));
    await expect(core.removeMember('acc', 'a')).rejects.toBeInstanceOf(ConflictError);
    expect(await store.members.get('acc', 'a')).toMatchObject({ role: 'owner', name: 'a' });
  });

  it('without a concurrent change, one of two owners steps down', async () => {
    const { core, store } = await setup(async () => undefined);
    await expect(core.updateMemberRole('acc', 'a', 'viewer')).resolves.toMatchObject({ id: 'a', role: 'viewer' });
    expect((await store.members.get('acc', 'b'))?.role).toBe('owner');
  });
});
