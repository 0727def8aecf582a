import { aligned } from './admin';

describe('what the admin commands print for a person', () => {
  it('puts the values in one column, one space after the longest label', () => {
    expect(aligned({ clientId: 'c1', clientSecret: 's3cret' })).toBe('clientId:     c1\nclientSecret: s3cret');
    expect(aligned({ accountId: 'acc', apiKey: 'k' })).toBe('accountId: acc\napiKey:    k');
  });

  it('keeps the order of the fields and prints empty values as they are', () => {
    expect(aligned({ b: '', a: 'x' })).toBe('b: \na: x');
  });
});
