import { ConflictError } from '@accord/common';
import { ConsoleCore } from './console';
import type { MemberDoc } from '../store/console-models';

/**
 * The rule "an account keeps an owner" under a concurrent change: the store has no transactions,
 * so a change checked against a count that another request then invalidates must be undone.
 * The fake repository plays that other request: right after the first owner count, it demotes
 * (or removes) the other owner, as a concurrent console request would.
 */
function setup(concurrent: (members: Map<string, MemberDoc>) => void) {
  const members = new Map<string, MemberDoc>();
  for (const id of ['a', 'b']) members.set(id, { _id: id, accountId: 'acc', name: id, role: 'owner', subject: null, createdAt: new Date(0) });
  let counts = 0;
  const repo = {
    findMember: async (_acc: string, id: string) => (members.has(id) ? { ...members.get(id)! } : null),
    countOwners: async () => {
      const n = [...members.values()].filter((m) => m.role === 'owner').length;
      if (counts++ === 0) concurrent(members); // the other request lands between this check and the change
      return n;
    },
    setMemberRole: async (_acc: string, id: string, role: string) => {
      const m = members.get(id);
      if (!m) return null;
      const before = { ...m };
      m.role = role;
      return before;
    },
    deleteMember: async (_acc: string, id: string) => {
      const m = members.get(id) ?? null;
      members.delete(id);
      return m;
    },
    insertMember: async (m: MemberDoc) => void members.set(m._id, { ...m }),
    revokeMemberSessions: async () => 0,
    deleteMemberLinks: async () => undefined,
  };
  const core = new ConsoleCore({ repo: repo as never, oauthRepo: {} as never, oauth: {} as never, crypto: {} as never });
  return { core, members };
}

describe('the last owner under concurrent changes', () => {
  it('a demotion that a concurrent demotion left ownerless is undone and refused as a conflict', async () => {
    const { core, members } = setup((m) => (m.get('b')!.role = 'developer'));
    await expect(core.updateMemberRole('acc', 'a', 'developer')).rejects.toBeInstanceOf(ConflictError);
    expect(members.get('a')!.role).toBe('owner');
  });

  it('a removal that a concurrent removal left ownerless is undone and refused as a conflict', async () => {
    const { core, members } = setup((m) => m.delete('b'));
    await expect(core.removeMember('acc', 'a')).rejects.toBeInstanceOf(ConflictError);
    expect(members.get('a')).toMatchObject({ role: 'owner', name: 'a' });
  });

  it('without a concurrent change, one of two owners steps down', async () => {
    const { core, members } = setup(() => undefined);
    await expect(core.updateMemberRole('acc', 'a', 'viewer')).resolves.toMatchObject({ _id: 'a', role: 'viewer' });
    expect(members.get('b')!.role).toBe('owner');
  });
});
