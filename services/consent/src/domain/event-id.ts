/**
 * The consent service's time-ordered ids, in one place: consent events, and erasure records,
 * which are ordered the same way. An id is 32 lowercase hex characters whose first 12 are the
 * creation millisecond, so ids sort by time, a time bound is an id bound, and the time of an id
 * can be read back from it.
 */
import { randomBytes, randomFillSync } from 'node:crypto';

/** Hex digits of the millisecond at the start of every id. */
const TIME_DIGITS = 12;
const ID_LENGTH = 32;

const timePart = (ms: number) => Math.max(0, Math.floor(ms)).toString(16).padStart(TIME_DIGITS, '0');

/** This process's 10 random hex digits (two processes' ids of one millisecond differ there). */
const NODE = randomBytes(5).toString('hex');
let lastMs = 0;
let seq = 0;

/**
 * A new event id and its creation time: 12 (milliseconds since the epoch) + 6 (per-process
 * sequence within the millisecond) + 10 (random per process) + 4 (random). Ids therefore sort
 * like (createdAt, then order of creation within a process), so "newest first" is simply "id
 * descending", and ties in createdAt sort deterministically. Within a process ids strictly
 * increase, even if the clock steps back (createdAt then stays at the last value).
 */
export function nextEventId(now: number = Date.now()): { id: string; createdAt: Date } {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    seq++;
    if (seq > 0xffffff) {
      ms++;
      seq = 0;
    }
  } else seq = 0;
  lastMs = ms;
  const id = timePart(ms) + seq.toString(16).padStart(6, '0') + NODE + randomHex(2);
  return { id, createdAt: new Date(ms) };
}

/**
 * Random bytes for ids, drawn from the system's generator 4 KiB at a time: one draw per id cost
 * more than the rest of an imported event's id (a million ids per import), and every byte is
 * still used once.
 */
const POOL = Buffer.alloc(4096);
let poolAt = POOL.length;
function randomHex(bytes: number): string {
  if (poolAt + bytes > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const hex = POOL.toString('hex', poolAt, poolAt + bytes);
  poolAt += bytes;
  return hex;
}

/** A time-ordered id of another record (an erasure): the millisecond, then 20 random hex digits. */
export function timeOrderedId(at: Date): string {
  return timePart(at.getTime()) + randomHex((ID_LENGTH - TIME_DIGITS) / 2);
}

/**
 * The id of an imported event (docs/consent.md, Import): its original creation millisecond, then
 * 20 random hex digits. Like every event id it begins with the event's `createdAt`, which is what
 * lets the stores order events by id (domain/consent.ts, `supersedes`): an event imported today
 * with a createdAt of 2019 sorts among 2019's events, never after today's.
 */
export function importedEventId(createdAt: Date): string {
  return timeOrderedId(createdAt);
}

/** Whether an id begins with this creation time (true of every event id the service gives). */
export function idMatchesTime(id: string, createdAt: Date): boolean {
  return id.length === ID_LENGTH && id.slice(0, TIME_DIGITS) === timePart(createdAt.getTime());
}

/** The smallest id of a record created at or after `ms` (ids below it are older). */
export function idFloor(ms: number): string {
  return timePart(ms) + '0'.repeat(ID_LENGTH - TIME_DIGITS);
}

/** When the record with this id was created (the millisecond at its start). */
export function idTime(id: string): Date {
  return new Date(parseInt(id.slice(0, TIME_DIGITS), 16));
}
