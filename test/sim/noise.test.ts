// Background noise: streamed lazily, in order, with secret-looking values that must never leak.
import { containsSimulatedSecret, noiseEvents, SECRET_CANARY, simulateCluster } from '../../sim';
import { NOISE_POLICY, NoiseSource } from '../../sim/noise';
import { Rng } from '../../sim/rng';
import { parseTime } from '../../sim/time';
import { makeNodes } from '../../sim/world';

describe('noiseEvents', () => {
  test('yields exactly the requested count, ordered by stageTimestamp', () => {
    const events = [...noiseEvents(11, '2026-01-05T00:00:00Z', 3000)];
    expect(events).toHaveLength(3000);
    const t = events.map((e) => parseTime(e.stageTimestamp));
    expect(t.every((x, i) => i === 0 || t[i - 1] <= x)).toBe(true);
    expect(new Set(events.map((e) => e.verb)).size).toBeGreaterThan(5);
    expect(events.some((e) => e.objectRef?.subresource === 'binding')).toBe(true);
    expect(events.some((e) => JSON.stringify(e).includes('mutation.webhook.admission.k8s.io'))).toBe(true);
  });

  test('is lazy: a huge count costs only what is read', () => {
    const it = noiseEvents(1, '2026-01-05T00:00:00Z', Number.MAX_SAFE_INTEGER);
    let n = 0;
    for (const e of it) {
      expect(e.auditID).toMatch(/^[0-9a-f-]{36}$/);
      if (++n === 2000) break;
    }
    expect(n).toBe(2000);
  });

  test('memory stays flat over a long stream: only a bounded backlog is held', () => {
    const source = new NoiseSource(new Rng(2), {
      start: parseTime('2026-01-05T00:00:00Z'),
      eventsPerSecond: 40,
      nodes: makeNodes(new Rng(3)),
      policy: NOISE_POLICY,
    });
    let n = 0;
    let most = 0;
    for (const e of source.events()) {
      void e;
      most = Math.max(most, source.backlog());
      if (++n === 100_000) break;
    }
    // Long watches and pods' follow-up requests wait in the backlog; nothing else is kept.
    expect(most).toBeLessThan(2_000);
  });
});

describe('secret-looking values', () => {
  const sim = simulateCluster({ seed: 8, start: '2026-01-05T00:00:00Z', noiseRatio: 0.7 });

  test('are written into the noise, plain and base64', () => {
    expect(sim.secrets.length).toBeGreaterThan(5);
    const text = JSON.stringify(sim.audit);
    for (const s of sim.secrets) {
      expect(text.includes(s)).toBe(true);
      expect(containsSimulatedSecret(s)).toBe(true);
    }
    expect(sim.secrets.some((s) => s.includes(SECRET_CANARY))).toBe(true);
    expect(sim.secrets.some((s) => !s.includes(SECRET_CANARY))).toBe(true);
  });

  test('never reach the truth or the operator lines', () => {
    expect(containsSimulatedSecret(JSON.stringify(sim.truth))).toBe(false);
    expect(containsSimulatedSecret(JSON.stringify(sim.operator))).toBe(false);
  });
});
