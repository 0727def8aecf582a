import { InvalidArgumentError } from '@accord/common';
import { accountErasureKey, ERASED_PREFIX, pseudonym, redaction, validateErase } from './erasure';

const secret = 'a-test-secret-of-at-least-thirty-two-characters';

describe('subject erasure rules', () => {
  it('refuses a subject or issuer holding U+FFFD: it may stand for several subjects, and erasure is for one', () => {
    const fields = (input: { subject: string; issuer?: string }) => {
      try {
        validateErase(input);
      } catch (err) {
        return (err as InvalidArgumentError).fields.map((f) => f.field);
      }
      return [];
    };
    expect(fields({ subject: 'u-\uFFFD' })).toEqual(['/subject']);
    expect(fields({ subject: 'u-1', issuer: 'https://\uFFFD.example' })).toEqual(['/issuer']);
    expect(fields({ subject: 'u-1', issuer: 'https://i.example' })).toEqual([]);
  });

  it('one subject becomes one pseudonym within an account, a different one in another account, and never shows the subject', () => {
    const a = accountErasureKey(secret, 'acc-a');
    const b = accountErasureKey(secret, 'acc-b');
    const p = pseudonym(a, 'alice@example.com');
    expect(p).toBe(pseudonym(a, 'alice@example.com'));
    expect(p).toMatch(/^erased:[A-Za-z0-9_-]{43}$/);
    expect(p).not.toContain('alice');
    expect(pseudonym(b, 'alice@example.com')).not.toBe(p);
    expect(pseudonym(a, 'bob@example.com')).not.toBe(p);
  });

  it('the pseudonym depends on the installation secret (without it a guessed subject cannot be confirmed)', () => {
    const other = accountErasureKey('another-secret-of-at-least-thirty-two-chars', 'acc-a');
    expect(pseudonym(other, 'alice')).not.toBe(pseudonym(accountErasureKey(secret, 'acc-a'), 'alice'));
  });

  it('replaces subject, source and delegate, and leaves absent fields absent', () => {
    const key = accountErasureKey(secret, 'acc');
    const r = redaction(key, { subject: 'alice', source: 'https://shop.example/users/alice', delegate: 'agent bob' });
    expect(r.subject.startsWith(ERASED_PREFIX)).toBe(true);
    expect(r.source).toBe(pseudonym(key, 'https://shop.example/users/alice'));
    expect(r.delegate).toBe(pseudonym(key, 'agent bob'));
    expect(redaction(key, { subject: 'alice' })).toEqual({ subject: pseudonym(key, 'alice') });
    expect(redaction(key, { subject: 'alice', source: null })).toEqual({ subject: pseudonym(key, 'alice') });
  });

  it('a missing, blank, too long or already erased subject is refused naming /subject; a blank issuer naming /issuer', () => {
    const fields = (input: { subject?: string; issuer?: string }) => {
      try {
        validateErase(input);
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidArgumentError);
        return (err as InvalidArgumentError).fields.map((f) => f.field);
      }
      return [];
    };
    expect(fields({})).toEqual(['/subject']);
    expect(fields({ subject: '  ' })).toEqual(['/subject']);
    expect(fields({ subject: 'x'.repeat(1025) })).toEqual(['/subject']);
    expect(fields({ subject: `${ERASED_PREFIX}abc` })).toEqual(['/subject']);
    expect(fields({ subject: 'alice', issuer: ' ' })).toEqual(['/issuer']);
    expect(validateErase({ subject: 'alice', issuer: '' })).toEqual({ subject: 'alice' });
    expect(validateErase({ subject: 'alice', issuer: 'https://shop.example' })).toEqual({ subject: 'alice', issuer: 'https://shop.example' });
  });
});
