// The CPUs a CPU quota allows this process: a container's limit (a Kubernetes Job's
// `resources.limits.cpu`, a CI runner's), which `os.availableParallelism()` does not see
// under cgroup v1 (measured here: 2 on a 2-core VM under a one-CPU quota). Reading files on
// two threads within one CPU's quota cost 1.34x the wall time of one thread and a fifth more
// memory (bench/README.md, issue 31), so the default reader count follows the quota.
//
// The quota is the kernel's: cgroup v2 `cpu.max` ("max 100000" or "<quota> <period>"), cgroup
// v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` (-1: none). A limit set on any ancestor of the
// process's cgroup applies too, so the path is walked up to the root and the smallest taken.
// Inside a cgroup namespace the process sees its own cgroup as `/`, which the walk covers.
import { readFileSync } from 'fs';

/** Where cgroup v1's cpu controller may be mounted: distributions differ in the name. */
const V1_MOUNTS = ['/sys/fs/cgroup/cpu,cpuacct', '/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpuacct,cpu'];
const V2_MOUNT = '/sys/fs/cgroup';

/** A file's text, or null when it cannot be read (absent, no permission). */
export type ReadText = (path: string) => string | null;

/** The cgroup paths of `/proc/self/cgroup`: v2's (`0::/path`) and v1's cpu controller's. */
export function cgroupPaths(procSelfCgroup: string): { v2: string | null; v1cpu: string | null } {
  let v2: string | null = null;
  let v1cpu: string | null = null;
  for (const line of procSelfCgroup.split('\n')) {
    const m = /^(\d+):([^:]*):(\/.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === '0' && m[2] === '') v2 = m[3];
    else if (m[2].split(',').includes('cpu')) v1cpu = m[3];
  }
  return { v2, v1cpu };
}

/** The path and each of its ancestors, deepest first: `/a/b` gives `/a/b`, `/a`, ``. */
function upToRoot(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  const out: string[] = [];
  for (let n = parts.length; n >= 0; n--) out.push(n === 0 ? '' : `/${parts.slice(0, n).join('/')}`);
  return out;
}

/** CPUs of a v2 `cpu.max`, or null for none ("max") or what is not one. */
export function cpusOfCpuMax(text: string): number | null {
  const m = /^(max|\d+)(?:\s+(\d+))?\s*$/.exec(text.trim());
  if (!m || m[1] === 'max') return null;
  const period = m[2] === undefined ? 100_000 : Number(m[2]);
  const quota = Number(m[1]);
  return quota > 0 && period > 0 ? quota / period : null;
}

/** CPUs of v1's quota and period files, or null for none (-1) or what is not one. */
export function cpusOfCfs(quotaText: string, periodText: string): number | null {
  const quota = Number(quotaText.trim());
  const period = Number(periodText.trim());
  if (!Number.isInteger(quota) || !Number.isInteger(period) || quota <= 0 || period <= 0) return null;
  return quota / period;
}

function smallest(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.min(...known);
}

/**
 * The CPUs the quotas on this process's cgroup and its ancestors allow (fractional, as
 * 1.5), or null when none limits it or none can be read.
 */
export function cpuQuota(read: ReadText = readOrNull): number | null {
  const self = read('/proc/self/cgroup');
  if (self === null) return null;
  const { v2, v1cpu } = cgroupPaths(self);
  const found: Array<number | null> = [];
  if (v2 !== null)
    for (const p of upToRoot(v2)) {
      const max = read(`${V2_MOUNT}${p}/cpu.max`);
      if (max !== null) found.push(cpusOfCpuMax(max));
    }
  if (v1cpu !== null)
    for (const mount of V1_MOUNTS)
      for (const p of upToRoot(v1cpu)) {
        const quota = read(`${mount}${p}/cpu.cfs_quota_us`);
        const period = read(`${mount}${p}/cpu.cfs_period_us`);
        if (quota !== null && period !== null) found.push(cpusOfCfs(quota, period));
      }
  return smallest(found);
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
