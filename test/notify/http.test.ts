import { HttpPostError, parseRetryAfter, postJsonWithRetry, retryDelayMs } from '../../lib/notify/http';
import { startLocalSlack, type LocalSlack } from '../../lib/local-aws/local-slack';

describe('retry timing', () => {
  const o = { baseDelayMs: 500, maxDelayMs: 20_000, random: () => 0.5 };
  it.each([
    ['3', 3000],
    ['0', 0],
    ['1.5', 1500],
    ['Mon, 02 Nov 2026 10:00:05 GMT', 5000],
    ['Mon, 02 Nov 2026 09:00:00 GMT', 0],
    ['soon', null],
    [null, null],
  ])('Retry-After %j is %j ms', (v, ms) =>
    expect(parseRetryAfter(v, Date.parse('2026-11-02T10:00:00Z'))).toBe(ms),
  );

  it.each([
    [1, null, 375],
    [2, null, 750],
    [3, null, 1500],
    [10, null, 15_000],
    [1, 4000, 4000],
  ])('attempt %i with Retry-After %j waits %i ms', (attempt, ra, ms) =>
    expect(retryDelayMs(attempt, ra, o)).toBe(ms),
  );
});

describe('postJsonWithRetry against a local webhook', () => {
  let slack: LocalSlack;
  beforeEach(async () => {
    slack = await startLocalSlack();
  });
  afterEach(async () => slack.stop());

  it('honours Retry-After on 429, then succeeds', async () => {
    slack.failNext(1, 429, 1);
    const waits: number[] = [];
    const res = await postJsonWithRetry(
      slack.url,
      { text: 'hi' },
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(res).toMatchObject({ status: 200, attempts: 2 });
    expect(waits).toEqual([1000]);
    expect(slack.requests.map((r) => JSON.parse(r.body))).toEqual([{ text: 'hi' }, { text: 'hi' }]);
    expect(slack.requests[0]!.contentType).toBe('application/json');
  });

  it('backs off on 5xx and gives up after maxAttempts', async () => {
    slack.failNext(3, 503);
    const waits: number[] = [];
    await expect(
      postJsonWithRetry(
        slack.url,
        {},
        { maxAttempts: 3, random: () => 0, sleep: async (ms) => void waits.push(ms) },
      ),
    ).rejects.toMatchObject({
      name: 'HttpPostError',
      status: 503,
      attempts: 3,
    });
    expect(waits).toEqual([250, 500]);
  });

  it('does not retry a 4xx other than 429', async () => {
    slack.failNext(1, 404);
    await expect(postJsonWithRetry(slack.url, {}, { sleep: async () => undefined })).rejects.toBeInstanceOf(
      HttpPostError,
    );
    expect(slack.requests).toHaveLength(1);
  });

  it('hands a Retry-After longer than it can wait back to the caller', async () => {
    slack.failNext(1, 429, 120);
    await expect(
      postJsonWithRetry(slack.url, {}, { maxDelayMs: 20_000, sleep: async () => undefined }),
    ).rejects.toThrow(/retry after 120000 ms/);
  });

  it('retries a refused connection like a 5xx', async () => {
    await slack.stop();
    const waits: number[] = [];
    await expect(
      postJsonWithRetry(slack.url, {}, { maxAttempts: 2, sleep: async (ms) => void waits.push(ms) }),
    ).rejects.toThrow(/after 2 attempts/);
    expect(waits).toHaveLength(1);
    slack = await startLocalSlack();
  });
});
