import { retryDelaySeconds } from '../../lib/aws/ingest-retry';

describe('retryDelaySeconds', () => {
  it.each([
    [1, 10],
    [2, 30],
    [3, 90],
    [4, 270],
    [5, 810],
    [6, 900], // never past 15 minutes
    [0, 10], // a count SQS did not give: the first retry's
    [Number.NaN, 10],
  ])('receive %p: %p s', (count, want) => {
    expect(retryDelaySeconds(count)).toBe(want);
  });

  it('grows from the base it is given', () => {
    expect([1, 2, 3].map((n) => retryDelaySeconds(n, 1))).toEqual([1, 3, 9]);
  });
});
