// A monitor that cannot see must say so, as a user's cron job or CI gate meets it: the built
// bin/koperator-audit.js in its own process. No audit event read from any input is exit 4
// with the "not an all-clear" banner in every format, --quiet or not; audit events that
// never name a pod, or pod writes logged at Metadata level only, are "blind" (a warning,
// and exit 1 under --fail-on blind); a quiet cluster whose pods the logs do show passes.
import { execFileSync, spawnSync } from 'child_process';
import { randomFillSync } from 'crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/koperator-audit.js');
const EXAMPLES = path.join(ROOT, 'examples/logs');
const TMP = mkdtempSync(path.join(tmpdir(), 'ka-false-green-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], input: string | Buffer = ''): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: TMP },
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let n = 0;
/** One audit event as kube-apiserver writes it (keys in its order). */
function event(verb: string, resource: string, level: string, extra: Record<string, unknown> = {}): string {
  n++;
  const at = new Date(Date.parse('2026-11-02T10:00:00Z') + n * 1000).toISOString();
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/kafka/${resource}`,
    verb,
    user: { username: 'system:serviceaccount:kube-system:some-controller' },
    objectRef: { resource, namespace: 'kafka', apiVersion: 'v1' },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: at,
    stageTimestamp: at,
    ...extra,
  });
}

function file(name: string, lines: string[]): string {
  const p = path.join(TMP, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

const leases = Array.from({ length: 50 }, () => event('update', 'leases', 'Metadata'));
/** A healthy cluster with no broker pod written: controllers read and watch pods, nodes renew leases. */
const quiet = file('quiet.log', [
  ...leases.slice(0, 10),
  ...Array.from({ length: 20 }, (_, i) => event(i % 2 ? 'watch' : 'list', 'pods', 'Metadata')),
  ...leases.slice(10),
]);
const noPods = file('no-pods.log', leases);
/** Broker pods created and deleted, every write at Metadata level: no body says what changed. */
const metadataOnly = file('metadata-only.log', [
  ...leases.slice(0, 5),
  ...[0, 1, 2].flatMap((i) => [
    event('create', 'pods', 'Metadata', {
      requestURI: '/api/v1/namespaces/kafka/pods',
      user: { username: 'system:serviceaccount:kafka:kafka-operator' },
      objectRef: { resource: 'pods', namespace: 'kafka', name: `kafka-0-abc${i}`, apiVersion: 'v1' },
    }),
    event('delete', 'pods', 'Metadata', {
      requestURI: `/api/v1/namespaces/kafka/pods/kafka-0-abc${i}`,
      objectRef: { resource: 'pods', namespace: 'kafka', name: `kafka-0-abc${i}`, apiVersion: 'v1' },
    }),
  ]),
]);
const random = path.join(TMP, 'random.bin');
writeFileSync(random, randomFillSync(Buffer.alloc(256 * 1024)));
/** One line of 20 MB, longer than --max-line-bytes' default: skipped, so nothing is read. */
const longLine = path.join(TMP, 'long-line.json');
writeFileSync(longLine, `{"log":"${'x'.repeat(20 * 2 ** 20)}"}\n`);

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT });
}, 60_000);

// The 20 MB line and the rest are this file's own: nothing stays in the temp folder.
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('no audit event read from any input: exit 4, not an all-clear', () => {
  const inputs: Array<[string, string[], string]> = [
    ['random bytes', ['--input', random], ''],
    ['an empty standard input', ['--input', '-'], ''],
    ['a file whose only line is 20 MB', ['--input', longLine], ''],
  ];
  const banners: Array<[string, RegExp]> = [
    ['table', /^!! NO AUDIT EVENT COULD BE READ: this is not an all-clear$/m],
    ['markdown', /\*\*No audit event could be read\*\* from any input: this is not an all-clear\./],
    ['html', /<div class="banner bad" id="nothing-read" role="alert"><b>No audit event could be read<\/b>/],
    ['json', /"blind": "no-audit-events"/],
  ];
  for (const [what, args, stdin] of inputs) {
    for (const [format, banner] of banners) {
      it(`${what}, --format ${format} --quiet --fail-on active-loop`, () => {
        const r = run(['analyze', ...args, '--format', format, '--quiet', '--fail-on', 'active-loop'], stdin);
        expect(r.code).toBe(4);
        expect(r.stdout).toMatch(banner);
        // A skipped over-long record is data lost: said too, even under --quiet. Random bytes may
        // hold lines that start like JSON and do not parse: those are said as damaged records.
        const lost =
          args[1] === longLine
            ? 'koperator-audit: warning: read in part: records skipped: 1 over the size limit \\(--max-line-bytes\\); findings in the lost data are missing \\(see summary\\.details\\)\\n'
            : args[1] === random
              ? '(koperator-audit: warning: read in part: records skipped: [^;\\n]+; findings in the lost data are missing \\(see summary\\.details\\)\\n)?'
              : '';
        expect(r.stderr).toMatch(
          new RegExp(
            `^koperator-audit: no audit event could be read from any input: this is not an all-clear\\n${lost}$`,
          ),
        );
      });
    }
  }

  it('the JSON says why in summary.warnings, and --fail-on blind does not turn it into 1', () => {
    const r = run(['analyze', '--input', random, '--format', 'json', '--fail-on', 'blind']);
    expect(r.code).toBe(4);
    const summary = JSON.parse(r.stdout).summary;
    expect(summary.warnings[0]).toMatch(/^no audit event could be read from any input .*not an all-clear/);
    expect(r.stderr).toMatch(/^koperator-audit: warning: no audit event could be read/m);
  });
});

describe('blind: audit events read, yet no broker pod change could be seen', () => {
  const cases: Array<[string, string, string | null, RegExp | null]> = [
    ['no event about pods', noPods, 'no-pod-events', /none about pods.*wrong log stream.*audit policy/],
    ['pod writes at Metadata level only', metadataOnly, 'metadata-only', /Metadata level.*audit policy/],
    ['a quiet window on a healthy cluster', quiet, null, null],
    ['the bundled examples', EXAMPLES, null, null],
  ];
  for (const [what, input, blind, warning] of cases) {
    it(`${what}: summary.blind ${String(blind)}, --fail-on blind exits ${blind ? 1 : 0}`, () => {
      const plain = run(['analyze', '--input', input, '--format', 'json']);
      expect(plain.code).toBe(0);
      const summary = JSON.parse(plain.stdout).summary;
      expect(summary.blind).toBe(blind);
      const blindLines = plain.stderr
        .split('\n')
        .filter((l) => l.startsWith('koperator-audit: warning: blind:'));
      if (warning) {
        expect(blindLines).toHaveLength(1);
        expect(blindLines[0]).toMatch(warning);
        expect(summary.warnings.filter((w: string) => w.startsWith('blind:'))).toHaveLength(1);
      } else {
        expect(blindLines).toEqual([]);
      }
      const gated = run(['analyze', '--input', input, '--format', 'json', '--fail-on', 'blind']);
      expect(gated.code).toBe(blind ? 1 : 0);
    });
  }

  it('the table report shows the blind warning on top', () => {
    const r = run(['analyze', '--input', noPods, '--format', 'table']);
    expect(r.stdout.split('\n')[0]).toMatch(/^! +warning: blind: 50 audit events read, none about pods/);
  });
});

describe('a --since/--until window that excludes every event', () => {
  const cases: Array<[string, string[], RegExp | null]> = [
    [
      '--since after the data ends',
      ['--since', '2030-01-01T00:00:00Z'],
      /--since 2030-01-01T00:00:00Z is after the newest event read/,
    ],
    [
      '--until before the data begins',
      ['--until', '2020-01-01T00:00:00Z'],
      /--until 2020-01-01T00:00:00Z is before the oldest event read/,
    ],
    [
      '--since after --until',
      ['--since', '2026-05-04T09:00:00Z', '--until', '2026-05-04T08:00:00Z'],
      /is after --until/,
    ],
    ['a window inside the data', ['--since', '2026-05-04T08:30:00Z'], null],
  ];
  for (const [what, args, warning] of cases) {
    it(`${what}: ${warning ? 'warns' : 'no warning'}`, () => {
      const r = run(['analyze', '--input', EXAMPLES, '--format', 'json', ...args]);
      expect(r.code).toBe(0);
      const warnings: string[] = JSON.parse(r.stdout).summary.warnings;
      if (warning) {
        expect(warnings.filter((w) => warning.test(w))).toHaveLength(1);
        expect(r.stderr).toMatch(warning);
      } else expect(warnings.filter((w) => /window/.test(w))).toEqual([]);
    });
  }
});

describe('"active" is judged against the newest event read, kept or not', () => {
  // An hour of unrelated traffic after the examples end (their loop is active at 09:02:20).
  const tailAt = (i: number) => new Date(Date.parse('2026-05-04T10:00:00Z') + i * 1000).toISOString();
  const tail = file(
    'tail.log',
    Array.from({ length: 20 }, (_, i) =>
      event('update', 'leases', 'Metadata', {
        requestReceivedTimestamp: tailAt(i),
        stageTimestamp: tailAt(i),
      }),
    ),
  );
  const cases: Array<[string, string[], number, string]> = [
    ['the examples alone', [EXAMPLES], 1, '2026-05-04T09:02:20.472197Z'],
    ['the examples, then an hour of leases', [EXAMPLES, tail], 0, tailAt(19)],
  ];
  for (const [what, inputs, active, end] of cases) {
    it(`${what}: ${active} active loop(s), the data ending ${end}`, () => {
      const r = run(['analyze', ...inputs.flatMap((i) => ['--input', i]), '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.summary.dataEndsAt).toBe(end);
      expect(doc.loops.filter((l: { active: boolean }) => l.active)).toHaveLength(active);
      expect(doc.loops.length).toBeGreaterThan(0);
    });
  }
});
