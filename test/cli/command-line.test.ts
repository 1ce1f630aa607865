// The command line as a user meets it: the built bundle behind bin/koperator-audit.js, in
// its own process, with a clean environment (no AWS settings leak in from the machine), a
// pseudo-terminal from util-linux `script` where the terminal matters (width, colour,
// progress), and S3 over the wire against fauxqs or a plain HTTP server that answers as
// S3 does when it refuses.
import { execFileSync, spawn, spawnSync } from 'child_process';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { createServer, type Server } from 'http';
import * as yaml from 'js-yaml';
import { tmpdir } from 'os';
import * as path from 'path';
import { listLocal } from '../../lib/sources/local';
import { livePodYaml } from '../../sim';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/koperator-audit.js');
const EXAMPLES = path.join(ROOT, 'examples/logs');
const HOME = mkdtempSync(path.join(tmpdir(), 'ka-home-'));
const TMP = mkdtempSync(path.join(tmpdir(), 'ka-cli-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A process environment with nothing of the machine's AWS set-up in it. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME,
    AWS_CONFIG_FILE: path.join(HOME, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(HOME, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extra,
  };
}

function run(args: string[], opts: { env?: Record<string, string>; input?: string | Buffer } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv(opts.env),
    input: opts.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** As run(), without blocking this process: for a server that lives in it. */
function runAsync(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs in a pseudo-terminal of `cols` columns; stdout and stderr both land in the terminal. */
function tty(args: string[], cols: number, env: Record<string, string> = {}): Run {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qfec', `stty cols ${cols} rows 40; ${quoted}`, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ TERM: 'xterm-256color', ...env }),
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout.replace(/\r\n/g, '\n'), stderr: r.stderr };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document read as a user's jq would
const json = (r: Run) => JSON.parse(r.stdout) as Record<string, any>;
/* eslint-disable no-control-regex -- matching terminal escape sequences is the point */
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** No stack trace: no `    at fn (file:line)` line. */
const STACK = /^\s+at .+[:(]/m;

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: ROOT });
}, 60_000);

describe('failed inputs are loud', () => {
  it('a path that does not exist: exit 4, the reason in words, inputErrors in the JSON', () => {
    const typo = path.join(TMP, 'var/log/audti');
    const r = run(['analyze', '--input', typo, '--format', 'json']);
    expect(r.code).toBe(4);
    expect(json(r).summary.inputErrors).toEqual([{ input: typo, reason: 'no such file or folder' }]);
    expect(r.stderr).toContain(`koperator-audit: cannot read ${typo}: no such file or folder\n`);
  });

  it('one good input and one bad: exit 3, the report of the rest with a banner on top', () => {
    const r = run(['analyze', '--input', EXAMPLES, '--input', '/nonexistent/audit', '--format', 'table']);
    expect(r.code).toBe(3);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('!! 1 INPUT COULD NOT BE READ: this report covers only the rest');
    expect(lines[1]).toBe('   /nonexistent/audit: no such file or folder');
    expect(r.stdout).toContain('30 broker pod deletions: 29 recreations across 12 brokers, 1 broker removed');
  });

  it('a markdown report carries the banner too', () => {
    const r = run(['analyze', '--input', '/nonexistent/audit', '--format', 'markdown']);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('**No input could be read** (1 input failed): this is not an all-clear.');
  });

  it('an empty folder and a FIFO are inputs that could not be read', () => {
    const empty = path.join(TMP, 'empty');
    mkdirSync(empty);
    execFileSync('mkfifo', [path.join(TMP, 'fifo')]);
    const r = run(['analyze', '--input', empty, '--input', path.join(TMP, 'fifo'), '--format', 'json']);
    expect(r.code).toBe(4);
    expect(json(r).summary.inputErrors).toEqual([
      { input: empty, reason: 'empty folder (no files in it)' },
      { input: path.join(TMP, 'fifo'), reason: 'not a regular file or folder' },
    ]);
  });

  it('records skipped inside a readable file stay exit 0', () => {
    const r = run(['analyze', '--input', path.join(ROOT, 'examples/damaged'), '--format', 'json']);
    expect(r.code).toBe(0);
    expect(json(r).summary.inputErrors).toEqual([]);
    expect(r.stderr).toMatch(/records skipped/);
  });

  describe('S3', () => {
    let fx: Fauxqs;
    let refusing: Server;
    let refusingUrl = '';
    beforeAll(async () => {
      fx = await startFauxqs();
      const s3 = new S3Client(fx.clientConfig);
      await s3.send(new CreateBucketCommand({ Bucket: 'audit' }));
      for await (const o of listLocal(EXAMPLES)) {
        const key = 'eks/prod/' + path.relative(EXAMPLES, o.name).split(path.sep).join('/');
        await s3.send(new PutObjectCommand({ Bucket: 'audit', Key: key, Body: readFileSync(o.name) }));
      }
      // What S3 answers when the credentials may not list the bucket.
      refusing = createServer((_req, res) => {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
        );
      });
      await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
      const addr = refusing.address();
      refusingUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    }, 60_000);
    afterAll(async () => {
      await fx?.stop();
      await new Promise((resolve) => refusing?.close(resolve));
    });

    const s3Env = (endpoint: string) => ({
      AWS_ENDPOINT_URL_S3: endpoint,
      KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    const reasonOf = (r: Run) => json(r).summary.inputErrors;

    it('no region: says to set AWS_REGION or --region', () => {
      const r = run(['analyze', '--input', 's3://audit/eks/prod/', '--format', 'json'], {
        env: s3Env(fx.endpoint),
      });
      expect(r.code).toBe(4);
      expect(reasonOf(r)).toEqual([
        { input: 's3://audit/eks/prod/', reason: 'no AWS region (set AWS_REGION or --region)' },
      ]);
    });

    it('--region reaches the S3 client: the same findings as the folder', () => {
      const r = run(
        ['analyze', '--input', 's3://audit/eks/prod/', '--region', 'us-east-1', '--format', 'json'],
        {
          env: s3Env(fx.endpoint),
        },
      );
      expect(r.code).toBe(0);
      expect(json(r).recreations).toHaveLength(30);
    });

    it('no credentials', () => {
      const r = run(['analyze', '--input', 's3://audit/eks/prod/', '--format', 'json'], {
        env: {
          AWS_REGION: 'eu-west-1',
          AWS_ENDPOINT_URL_S3: fx.endpoint,
          KOPERATOR_AUDIT_S3_PATH_STYLE: 'true',
        },
      });
      expect(r.code).toBe(4);
      expect(reasonOf(r)[0].reason).toMatch(/^no AWS credentials/);
    });

    it('no such bucket, and an empty prefix', () => {
      const env = { ...s3Env(fx.endpoint), AWS_REGION: 'us-east-1' };
      const r = run(
        [
          'analyze',
          '--input',
          's3://no-such-bucket/x/',
          '--input',
          's3://audit/eks/staging/',
          '--format',
          'json',
        ],
        { env },
      );
      expect(r.code).toBe(4);
      expect(reasonOf(r)).toEqual([
        { input: 's3://no-such-bucket/x/', reason: 'no such bucket' },
        { input: 's3://audit/eks/staging/', reason: 'no objects under this prefix' },
      ]);
    });

    it('access denied', async () => {
      const r = await runAsync(['analyze', '--input', 's3://audit/eks/prod/', '--format', 'json'], {
        ...s3Env(refusingUrl),
        AWS_REGION: 'us-east-1',
      });
      expect(r.code).toBe(4);
      expect(reasonOf(r)[0].reason).toMatch(/^access denied/);
    });

    it('backfill --region reaches both clients; without it and with no region in the queue URL, one line, exit 2', async () => {
      const sqs = new SQSClient(fx.clientConfig);
      const q = await sqs.send(new CreateQueueCommand({ QueueName: 'cli-backfill' }));
      const env = { ...s3Env(fx.endpoint), AWS_ENDPOINT_URL_SQS: fx.endpoint };
      const ok = run(['backfill', 's3://audit/eks/prod/', '--queue', q.QueueUrl!, '--region', 'us-east-1'], {
        env,
      });
      expect(ok.stderr).toMatch(/enqueued 8 objects from s3:\/\/audit\/eks\/prod\//);
      expect(ok.code).toBe(0);
      const none = run(['backfill', 's3://audit/eks/prod/', '--queue', q.QueueUrl!], { env });
      expect(none.code).toBe(2);
      expect(none.stderr.split('\n')[0]).toBe(
        'koperator-audit backfill: no AWS region for s3://audit/eks/prod/ (set AWS_REGION or --region)',
      );
      const missing = run(
        ['backfill', 's3://no-such-bucket/', '--queue', q.QueueUrl!, '--region', 'us-east-1'],
        {
          env,
        },
      );
      expect(missing.code).toBe(4);
      expect(missing.stderr).toBe('koperator-audit backfill: s3://no-such-bucket/: no such bucket\n');
    });
  });
});

describe('--fail-on', () => {
  it.each([
    ['active-loop', 1],
    ['loop', 1],
    ['revert', 1],
    ['any', 1],
  ])('--fail-on %s on the examples exits %i', (what, code) => {
    expect(run(['analyze', '--input', EXAMPLES, '--fail-on', what, '--format', 'json']).code).toBe(code);
  });

  it('matches nothing in logs without findings (exit 0), and refuses an unknown value (exit 2)', () => {
    const damaged = path.join(ROOT, 'examples/damaged');
    expect(run(['analyze', '--input', damaged, '--fail-on', 'any,loop', '--format', 'json']).code).toBe(0);
    const bad = run(['analyze', '--input', damaged, '--fail-on', 'loops']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'koperator-audit analyze: --fail-on must be one of active-loop, loop, revert, any, blind, partial (got "loops")',
    );
  });

  it('an active loop only counts as active at the end of the logs', () => {
    const early = run([
      'analyze',
      '--input',
      EXAMPLES,
      '--until',
      '2026-05-04T08:30:00Z',
      '--fail-on',
      'active-loop',
    ]);
    expect(early.code).toBe(0);
  });
});

describe('settings that match nothing are said', () => {
  it('an operator user that never creates a broker pod: warns, names the user seen, counts what changes', () => {
    const r = run([
      'analyze',
      '--input',
      EXAMPLES,
      '--operator-user',
      'system:serviceaccount:kafka:kafka-operator',
      '--format',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /koperator-audit: warning: operator user system:serviceaccount:kafka:kafka-operator never created a broker pod in these logs, while system:serviceaccount:kafka-operator:kafka-operator did: with that user as the operator, \d+ of 30 recreation\(s\) change class and 3 loop\(s\) are found \(0 now\)/,
    );
    expect(json(r).summary.warnings).toHaveLength(1);
  });

  it('the configuration example of docs/cli.md, run on the examples, changes nothing and warns of nothing about it', () => {
    const page = readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
    const block = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)![1];
    const file = path.join(TMP, 'koperator-audit.yaml');
    writeFileSync(file, block);
    const r = run(['analyze', '--input', EXAMPLES, '--config', file, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(json(r).summary.warnings).toEqual([]);
    expect(json(r).loops).toHaveLength(3);
  });

  it('a --cluster outside the --namespace given', () => {
    const r = run([
      'analyze',
      '--input',
      EXAMPLES,
      '--namespace',
      'telemetry',
      '--cluster',
      'clickstream-kafka',
    ]);
    expect(r.stderr).toContain(
      'koperator-audit: warning: --cluster clickstream-kafka is not in --namespace telemetry (it is in kafka)',
    );
  });

  it('--namespace and --cluster that match nothing', () => {
    const r = run([
      'analyze',
      '--input',
      EXAMPLES,
      '--namespace',
      'kafak',
      '--cluster',
      'orders',
      '--format',
      'json',
    ]);
    expect(r.stderr).toContain(
      'koperator-audit: warning: --namespace kafak matches no broker pod in the logs (namespaces seen: kafka, telemetry)',
    );
    expect(r.stderr).toMatch(
      /warning: --cluster orders matches no KafkaCluster in the logs \(KafkaClusters seen: .*clickstream-kafka/,
    );
  });
});

describe('errors are one line, usage errors exit 2, no stack unless --debug', () => {
  it.each([
    [
      ['analyze', '--input', EXAMPLES, '--config', '/nonexistent.yaml'],
      'koperator-audit analyze: --config /nonexistent.yaml: no such file',
    ],
    [['analyze', '--input', EXAMPLES, '--bogus'], 'koperator-audit analyze: unknown flag --bogus'],
    [['analyze'], 'koperator-audit analyze: analyze needs at least one -f/--input PATH'],
    [
      ['backfill', 'bucket/logs', '--queue', 'https://sqs.eu-west-1.amazonaws.com/1/q'],
      'koperator-audit backfill: not an s3:// URI: bucket/logs',
    ],
    [['explain-pod'], 'koperator-audit explain-pod: explain-pod needs exactly one FILE (or - for stdin)'],
    [
      ['frobnicate'],
      'koperator-audit: unknown command "frobnicate" (commands: analyze, explain-pod, local-pipeline, backfill, help)',
    ],
    [
      ['local-pipeline', '--input', '/nonexistent'],
      'koperator-audit local-pipeline: --input /nonexistent: no such file or folder',
    ],
  ])('%j', (args, first) => {
    const r = run(args);
    expect(r.code).toBe(2);
    // The whole of stderr: one line, no "Run --help" after it.
    expect(r.stderr).toBe(`${first}\n`);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('a config file with an unknown key or bad YAML', () => {
    const file = path.join(TMP, 'bad.yaml');
    writeFileSync(file, 'operatorUser: [x]\n');
    const r = run(['analyze', '--input', EXAMPLES, '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/--config|unknown key "operatorUser"/);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('the last stderr line', () => {
  it('says recreations, loops (active), time, events read and failed inputs, with thousands separators', () => {
    const r = run(['analyze', '--input', EXAMPLES, '--format', 'json']);
    const last = r.stderr.trimEnd().split('\n').pop();
    expect(last).toMatch(
      /^koperator-audit: 30 deletions: 29 recreations, 1 broker removed \(downscale\); 3 loops \(1 active\), 0 fights \(0 active\) in \d+\.\d s; 3,045 events read; 0 inputs failed$/,
    );
  });

  it('--quiet prints nothing on stderr but errors', () => {
    expect(run(['analyze', '--input', EXAMPLES, '--quiet', '--format', 'json']).stderr).toBe('');
    expect(run(['analyze', '--input', '/nonexistent', '--quiet', '--format', 'json']).stderr).toBe(
      'koperator-audit: cannot read /nonexistent: no such file or folder\n',
    );
  });
});

describe('the examples', () => {
  it('read clean: nothing skipped, no file that is not a log', () => {
    const r = run(['analyze', '--input', 'examples/logs', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/skipped|not logs|read only in part/);
    expect(json(r).summary.skipped).toEqual({});
  });
});

describe('more ways in', () => {
  it('--version prints the package version', () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(run(['--version']).stdout).toBe(`koperator-audit ${version}\n`);
  });

  it('analyse is analyze, and --help lists the exit codes', () => {
    const r = run(['analyse', '--input', EXAMPLES, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(json(r).recreations).toHaveLength(30);
    for (const help of [run(['--help']).stdout, run(['analyze', '--help']).stdout]) {
      expect(help).toMatch(/Exit status\n {2}0 .*\n {2}1 .*--fail-on/);
      expect(help).toMatch(
        /\n {2}3 +some inputs could not be listed or opened[^]*\n {2}4 +no input could be read at all/,
      );
    }
  });

  it('--input - reads standard input', () => {
    const audit = readFileSync(path.join(EXAMPLES, 'audit/kube-apiserver/audit.log'));
    const r = run(['analyze', '--input', '-', '--format', 'json'], { input: audit });
    expect(r.code).toBe(0);
    const doc = json(r);
    expect(doc.summary.inputs).toEqual(['-']);
    expect(doc.summary.audit.read).toBe(audit.toString('utf8').trim().split('\n').length);
  });

  it('--since 30m counts back from the end of the logs, not from now, and says from when', () => {
    const r = run(['analyze', '--input', EXAMPLES, '--since', '30m', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = json(r);
    const end = Date.parse(doc.summary.dataEndsAt);
    expect(Date.parse(doc.summary.since)).toBe(end - 30 * 60_000);
    expect(doc.recreations.length).toBeGreaterThan(0);
    expect(doc.recreations.length).toBeLessThan(30);
    for (const rec of doc.recreations)
      expect(Date.parse(rec.deletedPod.deletedAt)).toBeGreaterThanOrEqual(end - 30 * 60_000);
  });
});

describe('on a terminal', () => {
  it.each([80, 120, 200])('the table fits %i columns, in colour', (cols) => {
    const r = tty(['analyze', '--input', EXAMPLES, '--no-progress'], cols);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    // The report ends where stderr's first line (a warning or the counts) begins.
    const report = r.stdout.slice(
      0,
      r.stdout.search(/koperator-audit: (warning: |\d+ (recreations|deletions))/),
    );
    const lines = report.replace(ANSI, '').split('\n');
    expect(lines.length).toBeGreaterThan(50);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThan(cols);
  });

  it('draws progress with events per second and a phase line, then clears it', () => {
    const r = tty(
      ['analyze', '--input', EXAMPLES, '--format', 'json', '--out', path.join(TMP, 'out.json')],
      100,
    );
    expect(r.code).toBe(0);
    // Redraws are throttled, so which counts the last bar shows depends on timing; the phase line's do not.
    expect(r.stdout).toMatch(
      /\[[█░]+\] +\d+% +[\d.]+ (B|KiB) \/ [\d.]+ KiB · [\d,]+ events · [\d,]+ events\/s/,
    );
    expect(r.stdout).toMatch(/\r\u001b\[2Kanalysing [\d,]+ facts… \(read 3,045 events in [\d.]+ s\)/);
    // The bar is cleared before stderr's counts (the examples warn of nothing).
    expect(r.stdout).toMatch(/\r\u001b\[2Kkoperator-audit: 30 deletions: 29 recreations/);
  });

  it('is not coloured when NO_COLOR is set', () => {
    const r = tty(['analyze', '--input', EXAMPLES, '--no-progress'], 100, { NO_COLOR: '1' });
    expect(r.stdout).not.toMatch(/\u001b\[[0-9;]*m/);
  });
});

describe('explain-pod', () => {
  const file = (name: string, text: string) => {
    const p = path.join(TMP, name);
    writeFileSync(p, text);
    return p;
  };
  const list = () => {
    const items = [yaml.load(livePodYaml('scaleops', 11)), yaml.load(livePodYaml('clean', 12))];
    return file('pods.yaml', yaml.dump({ apiVersion: 'v1', kind: 'List', items }));
  };

  it('a List: one line per pod, then the details of each, and what to do', () => {
    const r = run(['explain-pod', list()]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^\S+\/\S+: RE-CREATED before the fix \(\d+ field\(s\)\), left alone with the fix$/,
    );
    expect(lines[1]).toMatch(/^\S+\/\S+: left alone before the fix, left alone with the fix$/);
    expect(lines[2]).toBe('');
    expect(r.stdout.match(/^pod /gm)).toHaveLength(2);
    expect(r.stdout).toMatch(/^what to do: .*koperator before 0\.30\.0-rc1 compares the live pod/m);
  });

  it('--exit-code: 1 when koperator before the fix would re-create a pod, else 0', () => {
    expect(run(['explain-pod', list(), '--exit-code']).code).toBe(1);
    const clean = file('clean.yaml', livePodYaml('clean', 12));
    expect(run(['explain-pod', clean, '--exit-code']).code).toBe(0);
    expect(run(['explain-pod', list()]).code).toBe(0);
  });

  it.each([
    [
      'deploy.yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {}\n',
      'not a Pod (kind Deployment)',
    ],
    ['empty.yaml', '', 'empty (expected a Pod as YAML or JSON)'],
    ['none.yaml', 'apiVersion: v1\nkind: List\nitems: []\n', 'a List with no items (no pod to explain)'],
  ])('%s: one clear line, exit 2', (name, text, reason) => {
    const p = file(name, text);
    const r = run(['explain-pod', p]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`koperator-audit explain-pod: ${p}: ${reason}`);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('a missing file: one clear line, exit 2', () => {
    const r = run(['explain-pod', '/nonexistent/pod.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('koperator-audit explain-pod: /nonexistent/pod.yaml: no such file');
  });
});
