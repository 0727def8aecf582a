/** A fault planned for one call: its error, and for `events.insert` how many events are stored first. */
export interface PlannedFault {
  error: unknown;
  after: number;
}

export class StoreFaults {
  private readonly planned = new Map<string, PlannedFault[]>();

  /** The next call of `method` (`<group>.<method>`, e.g. `events.insert`) fails with `error`; an insert stores `after` events first. */
  fail(method: string, opts: { error?: unknown; after?: number } = {}): void {
    const list = this.planned.get(method) ?? [];
    list.push({ error: opts.error ?? new Error(`injected fault: ${method}`), after: opts.after ?? 0 });
    this.planned.set(method, list);
  }

  /** The fault planned for this call of `method`, taken. */
  take(method: string): PlannedFault | undefined {
    return this.planned.get(method)?.shift();
  }
}

/** Calls a method: recorded, and failed when a fault is planned for it (`events.insert` gets its fault back and fails part-way itself). */
export type Call = (method: string) => PlannedFault | undefined;

/** The `call` of one store: each call pushed on `calls`, a planned fault thrown. */
export function recorder(faults: StoreFaults, calls: string[]): Call {
  return (method) => {
    calls.push(method);
    const f = faults.take(method);
    if (f && method !== 'events.insert') throw f.error;
    return f;
  };
}
