import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parseDateTime, wireDate } from './date-time';

/** The document's own check of `format: date-time`, as the gateway's validator runs it. */
const ajv = new Ajv2020();
addFormats(ajv);
const documentAccepts = ajv.compile({ type: 'string', format: 'date-time' });

describe('date-times of requests, read for the wire', () => {
  test.each([
    ['2099-12-31T23:59:60Z', '2100-01-01T00:00:00.000Z'],
    ['2099-12-31T23:59:60.999Z', '2100-01-01T00:00:00.000Z'],
    ['2099-12-31T15:59:60-08:00', '2100-01-01T00:00:00.000Z'],
    ['2100-01-01T00:00:60+00:01', '2100-01-01T00:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
  ])('a leap second, %s, is the start of the next second (%s)', (sent, instant) => {
    expect(documentAccepts(sent)).toBe(true);
    expect(parseDateTime(sent)!.toISOString()).toBe(instant);
  });

  test.each([
    ['2026-11-20T10:15:30Z', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20T10:15:30.123456789Z', '2026-11-20T10:15:30.123Z'],
    ['2026-11-20T10:15:30.5+01:00', '2026-11-20T09:15:30.500Z'],
    ['2026-11-20t10:15:30z', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20 10:15:30Z', '2026-11-20T10:15:30.000Z'],
    ['2026-11-20T10:15:30+05', '2026-11-20T05:15:30.000Z'],
    ['2026-11-20T10:15:30+0530', '2026-11-20T04:45:30.000Z'],
    ['2026-11-20T10:15:30-23:59', '2026-11-21T10:14:30.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000Z'],
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59-23:59', '+010000-01-01T23:58:59.000Z'],
  ])('%s, which the document accepts, is the instant %s', (sent, instant) => {
    expect(documentAccepts(sent)).toBe(true);
    expect(parseDateTime(sent)!.toISOString()).toBe(instant);
  });

  test.each([['2026-02-29T00:00:00Z'], ['2026-11-20T24:00:00Z'], ['2026-11-20T10:15:30'], ['2026-11-20T10:15:30.Z'], ['2026-13-01T00:00:00Z'], ['soon']])(
    '%s, which the document refuses, is no instant, and a 400 naming its field',
    (sent) => {
      expect(documentAccepts(sent)).toBe(false);
      expect(parseDateTime(sent)).toBeUndefined();
      expect(() => wireDate(sent, '/expiresAt')).toThrow(expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field: '/expiresAt' })] }));
    },
  );
});
