// The default reader count follows a container's CPU quota, read from the kernel's files as
// cgroup v1 and v2 lay them out; here from a table of those files.
import { cgroupPaths, cpuQuota, cpusOfCfs, cpusOfCpuMax } from '../../lib/cli/cpu-quota';
import { defaultWorkers } from '../../lib/cli/analyze-command';

const files = (m: Record<string, string>) => (p: string) => (p in m ? m[p] : null);

describe('cpuQuota', () => {
  it.each<[string, Record<string, string>, number | null]>([
    ['no /proc/self/cgroup (not Linux)', {}, null],
    [
      'v2, no limit',
      { '/proc/self/cgroup': '0::/user.slice\n', '/sys/fs/cgroup/user.slice/cpu.max': 'max 100000\n' },
      null,
    ],
    [
      'v2, a Job limited to 1.5 CPUs',
      {
        '/proc/self/cgroup': '0::/kubepods/pod1/c1\n',
        '/sys/fs/cgroup/kubepods/pod1/c1/cpu.max': '150000 100000\n',
      },
      1.5,
    ],
    [
      'v2, the limit on an ancestor (the pod), none on the container',
      {
        '/proc/self/cgroup': '0::/kubepods/pod1/c1\n',
        '/sys/fs/cgroup/kubepods/pod1/c1/cpu.max': 'max 100000\n',
        '/sys/fs/cgroup/kubepods/pod1/cpu.max': '200000 100000\n',
      },
      2,
    ],
    [
      'v2, the smaller of two limits on the path',
      {
        '/proc/self/cgroup': '0::/a/b\n',
        '/sys/fs/cgroup/a/b/cpu.max': '300000 100000',
        '/sys/fs/cgroup/a/cpu.max': '50000 100000',
      },
      0.5,
    ],
    [
      'v2 in a cgroup namespace (its own cgroup at /)',
      { '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': '100000 100000' },
      1,
    ],
    [
      'v1, cpu and cpuacct mounted together',
      {
        '/proc/self/cgroup': '4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n',
        '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '100000\n',
        '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
      },
      1,
    ],
    [
      "v1, the container's own cgroup mounted at the root (the host path is not there)",
      {
        '/proc/self/cgroup': '1:cpu:/docker/abc\n',
        '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '250000',
        '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000',
      },
      2.5,
    ],
    [
      'v1, no limit (-1)',
      {
        '/proc/self/cgroup': '1:cpu:/x\n',
        '/sys/fs/cgroup/cpu/x/cpu.cfs_quota_us': '-1',
        '/sys/fs/cgroup/cpu/x/cpu.cfs_period_us': '100000',
      },
      null,
    ],
    [
      'garbage in cpu.max counts as no limit',
      { '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': 'lots' },
      null,
    ],
  ])('%s', (_, m, want) => {
    expect(cpuQuota(files(m))).toBe(want);
  });
});

describe('the pieces', () => {
  it('reads both paths of /proc/self/cgroup', () => {
    expect(cgroupPaths('12:cpuset:/\n3:cpuacct,cpu:/k8s/p\n0::/k8s/p\n')).toEqual({
      v2: '/k8s/p',
      v1cpu: '/k8s/p',
    });
    expect(cgroupPaths('2:cpuacct:/a\n')).toEqual({ v2: null, v1cpu: null });
  });
  it.each([
    ['max', null],
    ['max 100000', null],
    ['100000', 1],
    ['50000 100000', 0.5],
    ['0 100000', null],
    ['-5 100000', null],
  ])('cpu.max %p', (text, want) => expect(cpusOfCpuMax(text)).toBe(want));
  it.each([
    ['-1', '100000', null],
    ['200000', '100000', 2],
    ['x', '100000', null],
    ['100000', '0', null],
  ])('cfs %p / %p', (q, p, want) => expect(cpusOfCfs(q, p)).toBe(want));
});

describe('defaultWorkers', () => {
  it.each<[number, number | null, number]>([
    [2, null, 2],
    [16, null, 8],
    [16, 1, 1],
    [16, 1.5, 1],
    [16, 0.5, 1],
    [16, 4, 4],
    [2, 4, 2],
  ])('%i cores, quota %p: %i readers', (cores, quota, want) => {
    expect(defaultWorkers(cores, quota)).toBe(want);
  });
});
