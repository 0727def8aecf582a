import { csvCells, csvHeader, csvRecord, importedEvent, importKey, ndjsonRecord } from './import';
import { idTime } from './event-id';

const NOW = new Date('2026-11-27T09:00:00.000Z');
const line = { subject: 'u-1', issuer: 'https://shop.example', target: 'https://shop.example/privacy', action: true, createdAt: '2019-05-01T10:00:00.000Z' };

describe('an imported line', () => {
  it('keeps its original createdAt, gains importedAt, and gets an id that begins with createdAt', () => {
    const r = importedEvent(line, 'acc', 'app', NOW);
    if (!('event' in r)) throw new Error(JSON.stringify(r.errors));
    expect(r.event.createdAt.toISOString()).toBe('2019-05-01T10:00:00.000Z');
    expect(r.event.importedAt).toEqual(NOW);
    expect(idTime(r.event.id)).toEqual(r.event.createdAt);
    expect(r.event.scope).toBe('default');
    expect(r.event.token).toMatch(/^[A-Z0-9]{6}$/);
  });

  it('is refused, naming the field, when createdAt is missing, not a date-time, or later than now', () => {
    const errors = (rec: Record<string, unknown>) => {
      const r = importedEvent(rec, 'acc', 'app', NOW);
      return 'errors' in r ? r.errors.map((e) => e.field) : [];
    };
    expect(errors({ ...line, createdAt: undefined })).toEqual(['createdAt']);
    expect(errors({ ...line, createdAt: 'yesterday' })).toEqual(['createdAt']);
    expect(errors({ ...line, createdAt: '2026-11-27T09:00:00.001Z' })).toEqual(['createdAt']);
    expect(errors({ ...line, subject: '' })).toEqual(['subject']);
    expect(errors({ ...line, action: 'yes' })).toEqual(['action']);
    expect(errors({ ...line, expiresAt: '2019-05-01T09:00:00.000Z' })).toEqual(['expiresAt']);
    // an expiry after createdAt that has passed since is history, not an error
    expect(errors({ ...line, expiresAt: '2020-05-01T09:00:00.000Z' })).toEqual([]);
  });

  it('is stored once per key: its externalId, or its content’s hash (the same content, the same key, per account)', () => {
    expect(importKey('acc', { ...line, externalId: 'e-1' })).toBe('acc/x:e-1');
    const reordered = { createdAt: line.createdAt, action: true, target: line.target, issuer: line.issuer, subject: line.subject };
    expect(importKey('acc', line)).toBe(importKey('acc', reordered));
    expect(importKey('acc', line)).not.toBe(importKey('acc', { ...line, action: false }));
    expect(importKey('acc', line)).not.toBe(importKey('other', line));
  });

  it('reads Accord’s export lines as they are (computed fields ignored), refuses unknown fields and erased events', () => {
    const exported = { id: '0'.repeat(32), appId: 'a', token: 'K7Q2ZP', expired: true, tcf: {}, ...line };
    const r = ndjsonRecord(JSON.stringify(exported));
    expect('record' in r && r.record).toEqual({ ...line, token: 'K7Q2ZP' });
    expect(ndjsonRecord('{"subject":')).toEqual({ errors: [{ field: '', detail: 'is not valid JSON' }] });
    expect(ndjsonRecord(JSON.stringify({ ...line, colour: 'red' }))).toEqual({ errors: [{ field: 'colour', detail: 'is not a field of an imported event' }] });
    expect('errors' in ndjsonRecord(JSON.stringify({ ...line, erasedAt: line.createdAt }))).toBe(true);
  });

  it('reads CSV under its header row, with RFC 4180 quotes', () => {
    expect(csvCells('a,"b,c","d ""e""",')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(csvCells('a,"b')).toBeUndefined();
    const columns = csvHeader('subject,issuer,target,action,createdAt,scope,gpc,targetVersion');
    const r = csvRecord('u-1,https://shop.example,"https://shop.example/privacy",false,2019-05-01T10:00:00Z,,true,3', columns);
    expect('record' in r && r.record).toEqual({
      subject: 'u-1',
      issuer: 'https://shop.example',
      target: 'https://shop.example/privacy',
      action: false,
      createdAt: '2019-05-01T10:00:00Z',
      gpc: true,
      targetVersion: 3,
    });
    expect(csvRecord('u-1,i,t,maybe,2019-05-01T10:00:00Z,,,', columns)).toEqual({
      errors: [{ field: 'action', detail: 'must be true, false, null or empty' }],
    });
    expect(() => csvHeader('subject,issuer,colour')).toThrow(/colour/);
  });
});
