import { createProgress, formatBytes, progressLine, type ProgressStream } from '../../lib/cli/progress';

function fakeStream(isTTY: boolean, columns = 100): ProgressStream & { writes: string[] } {
  const writes: string[] = [];
  return {
    isTTY,
    columns,
    writes,
    write: ((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    }) as ProgressStream['write'],
  };
}

describe('progress bar', () => {
  it('writes nothing when the stream is not a terminal', () => {
    const s = fakeStream(false);
    const p = createProgress(s, 1000);
    p.update(500, 10);
    p.done();
    expect(s.writes).toEqual([]);
  });

  it('draws bytes of total, events, events per second and the time left on a terminal', () => {
    let now = 0;
    const s = fakeStream(true);
    const p = createProgress(s, 4 * 1024 * 1024, { now: () => now });
    now = 2000;
    p.update(2 * 1024 * 1024, 50000);
    expect(s.writes).toHaveLength(1);
    const line = s.writes[0];
    expect(line.startsWith('\r\u001b[2K[')).toBe(true);
    expect(line).toContain(' 50%');
    expect(line).toContain('2.00 MiB / 4.00 MiB');
    expect(line).toContain('50,000 events');
    expect(line).toContain('25,000 events/s');
    // Half the bytes in 2 s: 2 s to go.
    expect(line).toContain('ETA 0:02');
  });

  it('throttles redraws', () => {
    let now = 0;
    const s = fakeStream(true);
    const p = createProgress(s, 1000, { now: () => now, minIntervalMs: 100 });
    for (let i = 0; i < 1000; i++) {
      now = i; // one update per millisecond for a second
      p.update(i, i);
    }
    expect(s.writes.length).toBe(10);
  });

  it('clears its line when done, once, and ignores later updates', () => {
    let now = 0;
    const s = fakeStream(true);
    const p = createProgress(s, 1000, { now: () => now });
    p.update(10, 1);
    p.done();
    p.done();
    now = 1000;
    p.update(20, 2);
    expect(s.writes).toEqual([expect.any(String), '\r\u001b[2K']);
  });

  it('fits the terminal width and copes with an unknown total', () => {
    for (const columns of [40, 60, 80, 200]) {
      const line = progressLine(500, 1000, 1234, 1, columns);
      expect([...line].length).toBeLessThan(columns);
    }
    expect(progressLine(500, 1000, 1234, 1, 200)).toMatch(/^\[█+░+\] {2}50%/);
    expect(progressLine(2048, 0, 3, 0, 80)).toBe('2.00 KiB · 3 events');
  });

  it('replaces the bar with a phase line once reading is over', () => {
    let now = 0;
    const s = fakeStream(true);
    const p = createProgress(s, 1000, { now: () => now });
    now = 1500;
    p.update(1000, 12345);
    p.phase('analysing 10 facts…');
    expect(s.writes[1]).toBe('\r\u001b[2Kanalysing 10 facts… (read 12,345 events in 1.5 s)');
    p.done();
    expect(s.writes[2]).toBe('\r\u001b[2K');
  });

  it('formats byte counts in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.00 GiB');
    expect(formatBytes(150 * 1024 ** 2)).toBe('150.0 MiB');
  });
});
