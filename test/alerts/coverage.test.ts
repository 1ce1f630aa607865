// The covered/not-covered decision (lib/alerts/coverage.ts) as a table, and how a run's
// coverage replaces the recorded one.
import { advanceCoverage, coverageDecision } from '../../lib/alerts/coverage';
import type { AlertState, PendingAlert } from '../../lib/alerts/types';
import { encodeAnalysisRequest, parseAnalysisRequest, requestSentMs } from '../../lib/aws/analysis-queue';

const RUN = { coveredUntil: '2026-11-02T06:10:00.000Z', readStartedAt: '2026-11-02T06:10:20.000Z' };
const ms = (t: string): number => Date.parse(t);
const pending = [{ event: {}, window: { from: '', to: '' }, report: null } as unknown as PendingAlert];

type State = Pick<AlertState, 'coveredUntil' | 'readStartedAt' | 'pending'>;
const cases: [string, State, string, number, boolean | string][] = [
  [
    'no run recorded yet',
    { pending: [] },
    '2026-11-02T06:09:00Z',
    ms('2026-11-02T06:10:00Z'),
    'no run recorded',
  ],
  [
    'inside the window, sent before the read',
    { ...RUN, pending: [] },
    '2026-11-02T06:09:59Z',
    ms('2026-11-02T06:10:19Z'),
    true,
  ],
  [
    'at the window end exactly',
    { ...RUN, pending: [] },
    '2026-11-02T06:10:00.000Z',
    ms('2026-11-02T06:10:00Z'),
    true,
  ],
  [
    'a microsecond past the window end',
    { ...RUN, pending: [] },
    '2026-11-02T06:10:00.000001Z',
    ms('2026-11-02T06:10:00Z'),
    'later than the window',
  ],
  [
    'sent when the read began (its facts may be missed)',
    { ...RUN, pending: [] },
    '2026-11-02T06:09:00Z',
    ms(RUN.readStartedAt),
    'sent after the read began',
  ],
  [
    'sent during the run',
    { ...RUN, pending: [] },
    '2026-11-02T06:09:00Z',
    ms('2026-11-02T06:10:30Z'),
    'sent after the read began',
  ],
  ['send time unknown', { ...RUN, pending: [] }, '2026-11-02T06:09:00Z', NaN, 'sent after the read began'],
  [
    'alerts left pending by a crashed run',
    { ...RUN, pending },
    '2026-11-02T06:09:00Z',
    ms('2026-11-02T06:10:00Z'),
    'alerts pending',
  ],
  [
    'only half recorded',
    { coveredUntil: RUN.coveredUntil, pending: [] },
    '2026-11-02T06:09:00Z',
    ms('2026-11-02T06:10:00Z'),
    'no run recorded',
  ],
];

describe('coverageDecision', () => {
  it.each(cases)('%s', (_name, state, time, sentMs, expected) => {
    const d = coverageDecision(state, { time, sentMs });
    if (expected === true) expect(d).toEqual({ covered: true, by: RUN });
    else expect(d).toEqual({ covered: false, why: expected });
  });
});

describe('advanceCoverage', () => {
  it.each([
    ['nothing recorded: the run', {}, RUN, RUN],
    [
      'a wider run replaces it',
      RUN,
      { coveredUntil: '2026-11-02T06:11:00Z', readStartedAt: '2026-11-02T06:11:05Z' },
      { coveredUntil: '2026-11-02T06:11:00Z', readStartedAt: '2026-11-02T06:11:05Z' },
    ],
    [
      'the same end, read later: the later read',
      RUN,
      { ...RUN, readStartedAt: '2026-11-02T06:12:00Z' },
      { ...RUN, readStartedAt: '2026-11-02T06:12:00Z' },
    ],
    [
      'a replayed older schedule keeps the recorded one',
      RUN,
      { coveredUntil: '2026-11-02T06:05:00Z', readStartedAt: '2026-11-02T06:13:00Z' },
      RUN,
    ],
  ])('%s', (_name, prev, run, expected) => {
    expect(advanceCoverage(prev, run)).toEqual(expected);
  });
});

describe('analysis request: reason and send time', () => {
  it.each([
    [
      'a schedule, SQS SentTimestamp',
      { cluster: 'c', time: '2026-11-02T06:00:00Z' },
      '1793599200000',
      1793599200000,
    ],
    [
      'evidence with its own sentAt',
      {
        cluster: 'c',
        time: '2026-11-02T06:00:00Z',
        reason: 'evidence' as const,
        sentAt: '2026-11-02T06:00:05.000Z',
      },
      '1',
      ms('2026-11-02T06:00:05Z'),
    ],
    ['neither known', { cluster: 'c', time: '2026-11-02T06:00:00Z' }, undefined, NaN],
  ])('%s', (_name, req, sentTimestamp, expected) => {
    const parsed = parseAnalysisRequest(encodeAnalysisRequest(req));
    expect(parsed).toEqual(req);
    expect(requestSentMs(parsed, sentTimestamp)).toBe(expected);
  });
  it.each([
    ['{"cluster":"c","time":"2026-11-02T06:00:00Z","reason":"later"}', /unknown reason/],
    ['{"cluster":"c","time":"2026-11-02T06:00:00Z","sentAt":"soon"}', /invalid sentAt/],
  ])('refuses %s', (body, message) => {
    expect(() => parseAnalysisRequest(body)).toThrow(message);
  });
});
