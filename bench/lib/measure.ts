// Runs one measurement as its own child process, so peak RSS belongs to that tool alone.
// Peak RSS comes from GNU time (`/usr/bin/time -v`, the max over the processes it waited
// for — for a shell pipeline that is its largest member, not the sum) or, without it,
// from what a Node child reports itself (process.resourceUsage().maxRSS).
import { spawn } from 'child_process';
import { existsSync } from 'fs';

export const GNU_TIME = '/usr/bin/time';
export const HAS_GNU_TIME = existsSync(GNU_TIME);

export interface RawRun {
  wallSeconds: number;
  peakRssMB: number | null;
  /** User + system CPU seconds of the run (GNU time), all threads and children; null without it. */
  cpuSeconds: number | null;
  stdout: string;
  stderr: string;
  code: number;
}

/** `argv` under GNU time when present; stdout is captured (callers keep it small). */
export function runMeasured(
  argv: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RawRun> {
  const cmd = HAS_GNU_TIME ? [GNU_TIME, '-v', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd[0], cmd.slice(1), {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.once('error', reject);
    child.once('close', (code) => {
      const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpuSeconds = user && sys ? Number(user[1]) + Number(sys[1]) : null;
      resolve({
        wallSeconds,
        peakRssMB: m ? Number(m[1]) / 1024 : null,
        cpuSeconds,
        stdout,
        stderr,
        code: code ?? -1,
      });
    });
  });
}

/** The last JSON object a child printed on stdout. */
export function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as Record<string, unknown>;
}
