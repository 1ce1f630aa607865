// `npm run bench -- --time-to-alert`, reduced (bench/lib/time-to-alert.ts): the same three
// loads through the real functions on fauxqs, with a shorter span (4 revert-loop
// iterations per broker instead of 14) and a tenth of the background (2 GB a day per cluster
// instead of 20). Fails when a load's p50 or p99 exceeds issue 29's goal, when a looping broker
// went unannounced, or when requests are left queued (a backlog).
import {
  DEFAULT_TTA,
  formatTimeToAlert,
  LOADS,
  timeToAlert,
  type LoadResult,
} from '../../bench/lib/time-to-alert';

const GOAL = { p50: 15, p99: 45 };
const REDUCED = { ...DEFAULT_TTA, iterations: 4, backgroundBytesPerDay: 2e9 };

describe('time to alert (issue 29), reduced', () => {
  let results: LoadResult[];
  const saved = { ...process.env };
  beforeAll(async () => {
    results = await timeToAlert(REDUCED);
    process.stdout.write(formatTimeToAlert(results));
  }, 170_000);
  afterAll(() => {
    process.env = saved;
  });

  it.each(LOADS.map((l) => [l.name, l.clusters * l.brokers] as const))(
    '%s: every looping broker announced within the goal, nothing left queued',
    (name, looping) => {
      const r = results.find((x) => x.load.name === name)!;
      // At least one per looping broker (a loop that ends and resumes is started again).
      expect(r.loopsStarted).toBeGreaterThanOrEqual(looping);
      expect(r.alerts.length).toBeGreaterThanOrEqual(looping);
      expect(r.leftInQueue).toBe(0);
      expect(r.p50).toBeLessThanOrEqual(GOAL.p50);
      expect(r.p99).toBeLessThanOrEqual(GOAL.p99);
    },
  );
});
