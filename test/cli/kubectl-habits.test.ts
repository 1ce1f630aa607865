// The command line as a kubectl user types it (issue 21), run as a user runs it: the built
// bundle behind bin/koperator-audit.js, in its own process, with a clean environment.
import { execFileSync, spawnSync } from 'child_process';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { FindingsDocument, Recreation } from '../../lib/model/findings';
import { livePodYaml } from '../../sim';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/koperator-audit.js');
const HOME = mkdtempSync(path.join(tmpdir(), 'ka-habits-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME,
      AWS_CONFIG_FILE: path.join(HOME, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(HOME, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
    input: '',
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const json = (r: Run): FindingsDocument => JSON.parse(r.stdout) as FindingsDocument;
const withoutTimes = (d: FindingsDocument) => ({ ...d, summary: { ...d.summary, seconds: 0 } });
const removal = (r: Recreation): boolean =>
  r.createdPod === null && r.evidence.some((e) => e.startsWith('downscale:'));

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT });
}, 60_000);

describe('short flags, as kubectl spells them', () => {
  it.each([
    [
      ['-f', 'examples/logs', '-o', 'json'],
      ['--input', 'examples/logs', '--format', 'json'],
    ],
    [
      ['-f', 'examples/logs', '-o', 'json', '-n', 'telemetry'],
      ['--input', 'examples/logs', '--format', 'json', '--namespace', 'telemetry'],
    ],
    [
      ['-fexamples/logs', '-ojson', '-q'],
      ['--input=examples/logs', '--format=json', '--quiet'],
    ],
  ])('analyze %j is analyze %j', (short, long) => {
    const a = run(['analyze', ...short]);
    const b = run(['analyze', ...long]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(withoutTimes(json(a))).toEqual(withoutTimes(json(b)));
  });

  it('-n narrows to the namespace', () => {
    const doc = json(run(['analyze', '-f', 'examples/logs', '-o', 'json', '-n', 'telemetry']));
    expect(doc.recreations.length).toBeGreaterThan(0);
    expect(new Set(doc.recreations.map((r) => r.namespace))).toEqual(new Set(['telemetry']));
  });

  it('explain-pod -f FILE -o json is explain-pod FILE --format json', () => {
    const pod = path.join(HOME, 'pod.yaml');
    writeFileSync(pod, livePodYaml('scaleops', 11));
    const a = run(['explain-pod', '-f', pod, '-o', 'json']);
    const b = run(['explain-pod', pod, '--format', 'json']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toHaveProperty('beforeFix');
    // One file, one way: both spellings at once is a usage error.
    expect(run(['explain-pod', pod, '-f', pod]).code).toBe(2);
  });
});

describe('a mistyped flag or command: what was probably meant, in one line', () => {
  it.each([
    [
      ['analyze', '--formt', 'json', '-f', 'examples/logs'],
      'koperator-audit analyze: unknown flag --formt (did you mean --format?)',
    ],
    [
      ['analyze', '-f', 'examples/logs', '--namspace', 'kafka'],
      'koperator-audit analyze: unknown flag --namspace (did you mean --namespace?)',
    ],
    [
      ['analyse', '-f', 'examples/logs', '--fail-onn', 'loop'],
      'koperator-audit analyse: unknown flag --fail-onn (did you mean --fail-on?)',
    ],
    [
      ['explain-pod', 'pod.yaml', '--exitcode'],
      'koperator-audit explain-pod: unknown flag --exitcode (did you mean --exit-code?)',
    ],
    [
      ['local-pipeline', '--lookbak', '6h'],
      'koperator-audit local-pipeline: unknown flag --lookbak (did you mean --lookback?)',
    ],
    [['analyz', '-f', 'examples/logs'], 'koperator-audit: unknown command "analyz" (did you mean analyze?)'],
    [['explain', 'pod.yaml'], 'koperator-audit: unknown command "explain" (did you mean explain-pod?)'],
  ])('%j', (args, line) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
    expect(r.stdout).toBe('');
  });
});

describe('help CMD is CMD --help', () => {
  it.each(['analyze', 'analyse', 'explain-pod', 'local-pipeline', 'backfill'])('help %s', (command) => {
    const a = run(['help', command]);
    const b = run([command, '--help']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^Usage: koperator-audit /);
  });

  it('analyze --help shows the short flags and --only', () => {
    const help = run(['analyze', '-h']).stdout;
    for (const flag of [
      '-f, --input PATH',
      '-o, --format FORMAT',
      '-n, --namespace NS',
      '-q, --quiet',
      '--only SECTIONS',
    ])
      expect(help).toContain(flag);
  });
});

describe('every error is one line (no "Run --help" second line)', () => {
  it.each([
    [['analyze'], 2],
    [['analyze', '-f'], 2],
    [['analyze', '-f', 'examples/logs', '-o', 'yaml'], 2],
    [['analyze', '-f', 'examples/logs', 'extra'], 2],
    [['analyze', '-f', 'examples/logs', '--only', 'timeline', '-o', 'table'], 2],
    [['analyze', '-f', 'examples/logs', '--only', 'loops', '-o', 'json'], 2],
    [['--bogus'], 2],
    [['explain-pod'], 2],
    [['explain-pod', 'a.yaml', '-o', 'yaml'], 2],
    [['backfill'], 2],
    [['local-pipeline', '-o', 'yaml'], 2],
  ])('%j exits %i with one line', (args, code) => {
    const r = run(args);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(/^koperator-audit[^\n]*: [^\n]+\n$/);
  });
});

describe('--loop-max-gap says its unit and is more than zero', () => {
  it.each([
    ['10', 'koperator-audit analyze: --loop-max-gap "10" needs a unit: 10s, 10m or 10h'],
    ['0', 'koperator-audit analyze: --loop-max-gap "0" needs a unit: 0s, 0m or 0h'],
    ['0s', 'koperator-audit analyze: --loop-max-gap "0s" must be longer than zero'],
    ['0m0s', 'koperator-audit analyze: --loop-max-gap "0m0s" must be longer than zero'],
    ['soon', 'koperator-audit analyze: --loop-max-gap "soon" is not a duration like 10m or 90s'],
  ])('%s is refused', (gap, line) => {
    const r = run(['analyze', '-f', 'examples/logs', '-o', 'json', '--loop-max-gap', gap]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('10m and 600s mean the same', () => {
    const a = run(['analyze', '-f', 'examples/logs', '-o', 'json', '--loop-max-gap', '10m']);
    const b = run(['analyze', '-f', 'examples/logs', '-o', 'json', '--loop-max-gap', '600s']);
    expect(a.code).toBe(0);
    expect(json(a).loops).toEqual(json(b).loops);
  });
});

describe('--workers', () => {
  it.each([['0'], ['1.5'], ['many'], ['257']])('%s is refused in one line', (n) => {
    const r = run(['analyze', '-f', 'examples/logs', '-o', 'json', '--workers', n]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `koperator-audit analyze: --workers must be an integer from 1 to 256 (got "${n}")\n`,
    );
  });

  it('1, 3 and the default give the same document on the built command', () => {
    const docs = [['--workers', '1'], ['--workers', '3'], []].map((w) => {
      const r = run(['analyze', '-f', 'examples/logs', '-f', 'examples/damaged', '-o', 'json', ...w]);
      expect(r.code).toBe(0);
      const { seconds: _s, ...summary } = json(r).summary as Record<string, unknown>;
      return { ...json(r), summary };
    });
    expect(docs[1]).toEqual(docs[0]);
    expect(docs[2]).toEqual(docs[0]);
  });
});

it('a TMPDIR that does not exist is named, in one line, not reported as a bug', () => {
  const missing = path.join(HOME, 'no-such-tmp');
  const r = run(['analyze', '-f', 'examples/logs', '-o', 'json'], { TMPDIR: missing });
  expect(r.code).toBe(5);
  expect(r.stderr).toBe(
    `koperator-audit analyze: the temporary folder ${missing} does not exist (set TMPDIR to a folder that exists)\n`,
  );
});

describe('a downscale is worded as a broker removed, not as a recreation', () => {
  const doc = (): FindingsDocument => json(run(['analyze', '-f', 'examples/logs', '-o', 'json']));

  it('the JSON keeps it in recreations, as the contract says', () => {
    const d = doc();
    expect(d.recreations.filter(removal)).toHaveLength(1);
  });

  it.each([
    ['table', 'broker pod deletions:', '(none: broker removed by a downscale)'],
    ['markdown', 'recreations** of', '(none: broker removed by a downscale)'],
  ])('-o %s', (format, headline, row) => {
    const d = doc();
    const removed = d.recreations.filter(removal).length;
    const r = run(['analyze', '-f', 'examples/logs', '-o', format], { COLUMNS: '200' });
    expect(r.code).toBe(0);
    const recreated = d.recreations.length - removed;
    const head = r.stdout.split('\n').find((l) => l.includes(headline))!;
    expect(head).toContain(`${recreated} `);
    expect(head).toContain(`${d.recreations.length} `);
    expect(head).toMatch(/1 broker removed\**? \(downscale\)/);
    expect(r.stdout).toContain(row);
    // The stderr summary counts the same way.
    expect(r.stderr.trimEnd().split('\n').pop()).toMatch(
      new RegExp(
        `^koperator-audit: ${d.recreations.length} deletions: ${recreated} recreations, 1 broker removed \\(downscale\\); `,
      ),
    );
  });
});

describe('--only prints just the sections asked for', () => {
  const TITLES = { loops: 'Loops (', fights: 'Fights (', recreations: 'Recreations (', inputs: 'Inputs' };
  it.each([
    ['table', 'loops,fights', ['loops', 'fights']],
    ['table', 'recreations', ['recreations']],
    ['markdown', 'fights', ['fights']],
    ['markdown', 'inputs,loops', ['loops', 'inputs']],
  ])('-o %s --only %s', (format, only, shown) => {
    const r = run(['analyze', '-f', 'examples/logs', '-o', format, '--only', only], { COLUMNS: '120' });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const prefix = format === 'markdown' ? '## ' : '';
    for (const [section, title] of Object.entries(TITLES)) {
      const present = lines.some((l) => l.startsWith(prefix + title));
      expect([section, present]).toEqual([section, shown.includes(section)]);
    }
    // The headline stays: a cut-down report still says what it is of.
    expect(r.stdout).toMatch(/recreations?\b/);
  });

  it('the full table is longer than any cut of it', () => {
    const full = run(['analyze', '-f', 'examples/logs', '-o', 'table']).stdout.split('\n').length;
    const cut = run(['analyze', '-f', 'examples/logs', '-o', 'table', '--only', 'loops']).stdout.split(
      '\n',
    ).length;
    expect(cut).toBeLessThan(full / 2);
  });
});

describe('local-pipeline prints what each reader got, not raw JSON', () => {
  let text: Run;
  let raw: Run;
  beforeAll(() => {
    text = run(['local-pipeline']);
    raw = run(['local-pipeline', '-o', 'json']);
  }, 240_000);

  it('per alert: the Slack message, the chat notification and the email, as read', () => {
    expect(text.code).toBe(0);
    const alerts = (text.stdout.match(/^━━ Alert \d+ of \d+: /gm) ?? []).length;
    expect(alerts).toBeGreaterThan(0);
    for (const sink of [/^── Slack$/gm, /^── Chat \(Amazon Q Developer\)$/gm, /^── Email: \[local\] /gm])
      expect((text.stdout.match(sink) ?? []).length).toBe(alerts);
    // Block Kit and notification JSON are not what a person reads.
    expect(text.stdout).not.toContain('"blocks"');
    expect(text.stdout).not.toContain('"textType"');
    expect(text.stdout).toContain('Broker: kafka/clickstream-kafka broker 5');
    expect(text.stdout.split('\n').length).toBeLessThan(400);
  });

  it('prints no link into the emulator, which is gone when the command returns', () => {
    const endpoint = /fauxqs on (http:\/\/127\.0\.0\.1:\d+)/.exec(text.stderr)?.[1];
    expect(endpoint).toBeDefined();
    expect(text.stdout).not.toContain(endpoint);
    expect(text.stdout).toContain('(link left out: it pointed into the emulator, which has stopped)');
    const rawEndpoint = /fauxqs on (http:\/\/127\.0\.0\.1:\d+)/.exec(raw.stderr)![1];
    expect(raw.stdout).not.toContain(rawEndpoint);
  });

  it('-o json: the raw payloads', () => {
    expect(raw.code).toBe(0);
    const doc = JSON.parse(raw.stdout) as { sns: unknown[]; slack: { blocks: unknown[] }[]; chat: unknown[] };
    expect(doc.slack.length).toBe(doc.sns.length);
    expect(doc.slack.every((p) => Array.isArray(p.blocks))).toBe(true);
  });

  it('a first run over old logs alerts the loop still going on, not the loops long over', () => {
    const events = (JSON.parse(raw.stdout) as { sns: { attributes: { event: string } }[] }).sns.map(
      (m) => m.attributes.event,
    );
    // The examples hold three loops, one active at the end of the logs.
    expect(events.filter((e) => e === 'loop-started')).toHaveLength(1);
    expect(events).not.toContain('loop-ended');
    expect(text.stdout).toContain(
      '2 loop(s) ended before this first analysis: they are in the report, not alerted',
    );
  });

  it('--backfill alerts those too, started and ended', () => {
    const r = run(['local-pipeline', '--backfill', '-o', 'json']);
    expect(r.code).toBe(0);
    const events = (JSON.parse(r.stdout) as { sns: { attributes: { event: string } }[] }).sns.map(
      (m) => m.attributes.event,
    );
    expect(events.filter((e) => e === 'loop-started')).toHaveLength(3);
    expect(events.filter((e) => e === 'loop-ended')).toHaveLength(2);
  }, 120_000);
});
