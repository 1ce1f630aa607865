// POST with retry: Slack's incoming webhooks answer 429 with Retry-After when a channel
// is rate limited, and occasionally 5xx. Retrying inside the invocation keeps one slow
// moment from becoming a Lambda retry (which would re-run everything); a wait longer than
// the invocation can afford is handed back as an error so Lambda's own async retry,
// minutes later, takes over.

export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  /** Longest single wait; a Retry-After beyond it ends the attempts (see above). */
  maxDelayMs: number;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1); injected so tests get exact delays. */
  random: () => number;
  now: () => number;
}

export function defaultRetryOptions(): RetryOptions {
  return {
    maxAttempts: 5,
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    timeoutMs: 10_000,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    random: Math.random,
    now: Date.now,
  };
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, t - nowMs);
}

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1). The server's Retry-After
 * wins when given; otherwise exponential back-off with jitter in [half, full] of the
 * step so that many notifiers do not retry in lockstep.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | null,
  o: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
): number {
  if (retryAfterMs !== null) return retryAfterMs;
  const step = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + (step / 2) * o.random());
}

export class HttpPostError extends Error {
  override name = 'HttpPostError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
  }
}

export interface PostResult {
  status: number;
  attempts: number;
  body: string;
}

export async function postJsonWithRetry(
  url: string,
  payload: unknown,
  opts: Partial<RetryOptions> = {},
): Promise<PostResult> {
  const o = { ...defaultRetryOptions(), ...opts };
  const body = JSON.stringify(payload);
  for (let attempt = 1; ; attempt++) {
    let status: number | null = null;
    let retryAfter: number | null = null;
    let detail = '';
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      const text = await res.text();
      if (res.ok) return { status: res.status, attempts: attempt, body: text };
      status = res.status;
      detail = text.slice(0, 200);
      if (!isRetryableStatus(res.status)) {
        // 400 invalid_payload, 403, 404 no_service: retrying cannot help.
        throw new HttpPostError(`POST failed with ${res.status}: ${detail}`, res.status, attempt);
      }
      retryAfter = parseRetryAfter(res.headers.get('retry-after'), o.now());
    } catch (e) {
      if (e instanceof HttpPostError) throw e;
      // Network error or timeout: retried like a 5xx.
      detail = e instanceof Error ? e.message : String(e);
    }
    if (attempt >= o.maxAttempts) {
      throw new HttpPostError(
        `POST failed after ${attempt} attempts (last: ${status ?? 'network error'} ${detail})`,
        status,
        attempt,
      );
    }
    const wait = retryDelayMs(attempt, retryAfter, o);
    if (wait > o.maxDelayMs) {
      throw new HttpPostError(
        `server asked to retry after ${wait} ms, more than the ${o.maxDelayMs} ms this invocation waits`,
        status,
        attempt,
      );
    }
    await o.sleep(wait);
  }
}
