import { InvalidArgumentError } from '@accord/common';
import { idFloor } from '../domain/event-id';
import { LinkConflictError, MAX_LINKED_IDENTITIES } from '../domain/link';
import { memoryConsentStore } from '../store/memory/store';
import { Links } from './links';

const I = 'https://shop.example';
const setup = () => {
  const store = memoryConsentStore();
  const stored: string[] = [];
  return { store, links: new Links(store.links, { stored: (l) => stored.push(l.id) }), stored };
};
const fieldOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { kind: (err as Error)?.constructor?.name, fields: (err as InvalidArgumentError)?.fields?.map((f) => f.field) };
};

describe('linked identities', () => {
  it('resolve a name to its subject and every identity whose newest link names it; a name without links costs one lookup', async () => {
    const { store, links, stored } = setup();
    await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: 'user-42' });
    await links.link('acc', 'app', { issuer: I, identity: 'phone-b', subject: 'user-42' });
    expect(stored).toHaveLength(2);
    expect(await links.group('acc', I, 'user-42')).toEqual({ subject: 'user-42', names: ['user-42', 'device-a', 'phone-b'] });
    expect(await links.group('acc', I, 'device-a')).toEqual({ subject: 'user-42', names: ['user-42', 'device-a', 'phone-b'] });
    // another issuer, another account: nothing
    expect(await links.group('acc', 'https://other.example', 'user-42')).toEqual({ subject: 'user-42', names: ['user-42'] });
    expect(await links.group('acc2', I, 'user-42')).toEqual({ subject: 'user-42', names: ['user-42'] });
    store.calls.length = 0;
    expect(await links.group('acc', I, 'user-7')).toEqual({ subject: 'user-7', names: ['user-7'] });
    expect(store.calls).toEqual(['links.naming']);
  });

  it('move a device with a new link and unlink it with subject null; the newest link wins and a past bound sees the links of then', async () => {
    const { links } = setup();
    const first = await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: 'user-42' });
    await new Promise((r) => setTimeout(r, 3));
    const moved = await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: 'user-43' });
    expect((await links.group('acc', I, 'user-42')).names).toEqual(['user-42']);
    expect((await links.group('acc', I, 'user-43')).names).toEqual(['user-43', 'device-a']);
    // before the move
    expect((await links.group('acc', I, 'user-42', moved.id)).names).toEqual(['user-42', 'device-a']);
    expect((await links.group('acc', I, 'user-42', idFloor(first.createdAt.getTime()))).names).toEqual(['user-42']);
    await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: null });
    expect((await links.group('acc', I, 'user-43')).names).toEqual(['user-43']);
    expect((await links.list('acc', { issuer: I, identity: 'device-a' })).links.map((l) => l.subject)).toEqual([null]);
    expect((await links.list('acc', { issuer: I, identity: 'device-a', history: true })).links.map((l) => l.subject)).toEqual([null, 'user-43', 'user-42']);
    expect((await links.list('acc', { issuer: I, subject: 'user-43' })).links).toEqual([]);
  });

  it('refuse a chain: an identity that has identities of its own (409 identity), a subject linked elsewhere (409 subject)', async () => {
    const { links } = setup();
    await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: 'user-42' });
    expect(await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'user-42', subject: 'user-1' }))).toEqual({
      kind: 'LinkConflictError',
      fields: ['identity'],
    });
    expect(await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'device-b', subject: 'device-a' }))).toEqual({
      kind: 'LinkConflictError',
      fields: ['subject'],
    });
    // a cycle of two
    expect(await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'user-42', subject: 'device-a' }))).toEqual({
      kind: 'LinkConflictError',
      fields: ['identity'],
    });
    // once device-a is moved away, user-42 may itself be linked
    await links.link('acc', 'app', { issuer: I, identity: 'device-a', subject: null });
    await links.link('acc', 'app', { issuer: I, identity: 'user-42', subject: 'user-1' });
    expect((await links.group('acc', I, 'user-42')).subject).toBe('user-1');
    // another issuer is another graph
    await links.link('acc', 'app', { issuer: 'https://other.example', identity: 'user-1', subject: 'user-42' });
  });

  it('refuse bad input with a 400 naming each field, identifiers kept exactly as sent', async () => {
    const { links } = setup();
    expect(await fieldOf(links.link('acc', 'app', { issuer: '', identity: ' ', subject: 'u\uFFFD' }))).toEqual({
      kind: 'InvalidArgumentError',
      fields: ['issuer', 'identity', 'subject'],
    });
    expect((await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'd' }))).fields).toEqual(['subject']);
    expect((await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'd', subject: 'd' }))).fields).toEqual(['subject']);
    expect((await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'x'.repeat(1025), subject: 'd' }))).fields).toEqual(['identity']);
    expect((await fieldOf(links.link('acc', 'app', { issuer: I, identity: 'erased:abc', subject: 'd' }))).fields).toEqual(['identity']);
    const l = await links.link('acc', 'app', { issuer: I, identity: ' Device A ', subject: 'User-42 ' });
    expect(l).toMatchObject({ identity: ' Device A ', subject: 'User-42 ' });
    expect((await fieldOf(links.list('acc', { issuer: I }))).fields).toEqual(['identity']);
    expect((await fieldOf(links.list('acc', { issuer: I, identity: 'a', subject: 'b' }))).fields).toEqual(['subject']);
  });

  it(`hold at most ${MAX_LINKED_IDENTITIES} identities per subject`, async () => {
    const { links } = setup();
    for (let i = 0; i < MAX_LINKED_IDENTITIES; i++) await links.link('acc', 'app', { issuer: I, identity: `d-${i}`, subject: 'user-42' });
    await expect(links.link('acc', 'app', { issuer: I, identity: 'd-x', subject: 'user-42' })).rejects.toBeInstanceOf(LinkConflictError);
    // linking one of them again is no new identity
    await links.link('acc', 'app', { issuer: I, identity: 'd-0', subject: 'user-42' });
  });
});
