// A one-line progress bar for long reads, on stderr so stdout stays one clean JSON or
// report document. It draws only on a terminal: in CI logs or when stderr is redirected
// a bar is just noise (every redraw would become a line), so it stays silent there.
//
//   [██████████░░░░░░░░░░]  48%  1.2 GiB / 2.5 GiB · 1,234,567 events · 160,300 events/s · ETA 0:12
//
// Events are every audit event and operator line read, kept or not: in logs that are 95 %
// noise, counting only what is kept would understate the speed twentyfold. Once reading is
// over, a phase line ("analysing 36,280 facts…") stands in for the bar until the end.
import type { Progress } from '../pipeline/analyze-inputs';
import { formatBytes } from '../report/format';

export { formatBytes };

export type { Progress };

/** The part of a write stream the bar needs; `process.stderr` satisfies it. */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

export interface ProgressOptions {
  /** Milliseconds clock; injectable so tests control time. */
  now?: () => number;
  /** Shortest time between two redraws: redrawing on every record would cost more than reading it. */
  minIntervalMs?: number;
}

const CLEAR_LINE = '\r\u001b[2K';

export function createProgress(
  stream: ProgressStream,
  totalBytes: number,
  options: ProgressOptions = {},
): Progress {
  if (!stream.isTTY) return { update: () => undefined, phase: () => undefined, done: () => undefined };
  const now = options.now ?? Date.now;
  const minInterval = options.minIntervalMs ?? 100;
  const started = now();
  let lastDraw = -Infinity;
  let finished = false;
  let last = { bytes: 0, records: 0 };

  const draw = (): void => {
    const elapsed = (now() - started) / 1000;
    const line = progressLine(last.bytes, totalBytes, last.records, elapsed, stream.columns ?? 80);
    stream.write(CLEAR_LINE + line);
  };

  return {
    update(bytesRead: number, records: number): void {
      if (finished) return;
      last = { bytes: bytesRead, records };
      const t = now();
      if (t - lastDraw < minInterval) return;
      lastDraw = t;
      draw();
    },
    phase(text: string): void {
      if (finished) return;
      // Reading is over: the last bar says how far it got, then the phase replaces it.
      lastDraw = now();
      const elapsed = ((now() - started) / 1000).toFixed(1);
      stream.write(
        CLEAR_LINE +
          fit(`${text} (read ${groupDigits(last.records)} events in ${elapsed} s)`, stream.columns ?? 80),
      );
    },
    done(): void {
      if (finished) return;
      finished = true;
      // Clear rather than leave a stale bar: what follows on stderr (warnings, the
      // summary) should start on a clean line.
      if (lastDraw !== -Infinity) stream.write(CLEAR_LINE);
    },
  };
}

/** The text of one redraw, fitted to `columns`; pure, for tests. `records` counts every event read. */
export function progressLine(
  bytes: number,
  totalBytes: number,
  records: number,
  elapsedSeconds: number,
  columns: number,
): string {
  const known = totalBytes > 0;
  const fraction = known ? Math.min(1, Math.max(0, bytes / totalBytes)) : 0;
  const rate = elapsedSeconds > 0 ? records / elapsedSeconds : 0;
  // The time left from the byte rate so far: bytes are what the total is known in.
  const eta =
    known && elapsedSeconds > 0 && bytes > 0 && bytes < totalBytes
      ? [`ETA ${formatClock(((totalBytes - bytes) * elapsedSeconds) / bytes)}`]
      : [];
  const stats = [
    known ? `${formatBytes(bytes)} / ${formatBytes(totalBytes)}` : formatBytes(bytes),
    `${groupDigits(records)} events`,
    ...(elapsedSeconds > 0 ? [`${groupDigits(Math.round(rate))} events/s`] : []),
    ...eta,
  ].join(' · ');
  if (!known) return fit(stats, columns);
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  // The bar takes what the text leaves, between 10 and 30 cells; on a very narrow
  // terminal it is dropped rather than wrapping onto a second line.
  const room = columns - 1 - (stats.length + percent.length + 6);
  const width = Math.min(30, room);
  if (width < 10) return fit(`${percent}  ${stats}`, columns);
  const filled = Math.round(fraction * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${percent}  ${stats}`;
}

/** One character short of the width: writing the last column makes some terminals wrap. */
function fit(text: string, columns: number): string {
  return text.length < columns ? text : text.slice(0, Math.max(0, columns - 2)) + '…';
}

/** `0:42`, `12:05`, `1:02:03`. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
