/**
 * Helpers of the services' memory stores (`store/memory/`): the storage ports' behaviour without
 * a database, for unit tests and as the reference of the contract tests.
 */

/**
 * A deep copy of a record as a database round trip makes it: plain objects, arrays, Dates and
 * Buffers are copied, other values shared. (structuredClone would do, but its Dates are not
 * `instanceof Date` inside jest's sandbox.)
 */
export function copyRecord<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    // fromEntries defines each key as its own property: a key `__proto__` (a webhook header's name) is copied, not dropped
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyRecord(v)])) as T;
  }
  return value;
}
