import { charge, ownerOf, type CpuProfile } from './cpuprofile';

describe('CPU profiles charged to the code responsible', () => {
  it('names packages, Accord files, and leaves built-ins and Node internals to their caller', () => {
    expect(ownerOf('file:///r/node_modules/@grpc/grpc-js/build/src/call.js', 'f')).toBe('@grpc/grpc-js');
    expect(ownerOf('file:///r/node_modules/express/lib/router/index.js', 'f')).toBe('express');
    expect(ownerOf('file:///r/services/gateway/dist/middleware/auth.js', 'f')).toBe('gateway/middleware/auth');
    expect(ownerOf('file:///r/proto/dist/accord/consent/v1/consent.js', 'f')).toBe('proto/accord/consent/v1/consent');
    expect(ownerOf('node:internal/streams/writable', 'write')).toBeUndefined();
    expect(ownerOf('', 'stringify')).toBeUndefined();
    expect(ownerOf('', '(garbage collector)')).toBe('(garbage collector)');
  });

  it('charges the samples of a time window, built-ins to the nearest owned caller, idle left out', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9 });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 5, 6] },
        { id: 2, callFrame: frame('handle', 'file:///r/services/gateway/dist/routes/consent.js'), children: [3] },
        { id: 3, callFrame: frame('json', 'file:///r/node_modules/express/lib/response.js'), children: [4] },
        { id: 4, callFrame: frame('stringify', ''), children: [] },
        { id: 5, callFrame: frame('(idle)', ''), children: [] },
        { id: 6, callFrame: frame('handle', 'file:///r/services/gateway/dist/routes/consent.js'), children: [] },
      ],
      startTime: 1_000,
      endTime: 9_000,
      // t = 2000, 3000, 4000, 5000, 6000 µs; each sample lasts until the next (1 ms)
      samples: [4, 4, 5, 6, 4],
      timeDeltas: [1_000, 1_000, 1_000, 1_000, 1_000],
    };
    const c = charge(profile, 2_500, 5_500); // the samples at 3000 (stringify), 4000 (idle), 5000 (handle)
    expect(c.totalMs).toBe(2);
    expect(c.byOwner).toEqual([
      ['express', 1],
      ['gateway/routes/consent', 1],
    ]);
    expect(c.byAccordFunction).toEqual([['gateway/routes/consent handle:10', 1]]);
  });
});
