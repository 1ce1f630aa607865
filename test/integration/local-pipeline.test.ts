// `koperator-audit local-pipeline` as a command implementation: emulators up, a folder
// uploaded, the three handlers driven as Lambda would, SNS messages and Slack payloads
// printed. Runs on the shared scenario corpus when present, else on a tiny folder that
// yields no alert (the run must still go through every stage).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { runLocalPipeline } from '../../lib/cli/local-pipeline';
import { describeWithCorpus, DRIFT, SCENARIOS } from '../support/shared-corpus';
import type { LoopAlertMessage } from '../../lib/notify/message';
import type { SlackPayload } from '../../lib/notify/slack';

const CORPUS = SCENARIOS;

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('runLocalPipeline', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  describeWithCorpus(CORPUS, 'on the shared scenario corpus', () => {
    it('turns the corpus into loop alerts on SNS and Slack, and restores the environment', async () => {
      const out = sink();
      const err = sink();
      const before = { ...process.env };
      // Played as a backfill into a watched cluster: the corpus's loops are over, and only
      // then are they news (a first run puts them in the report; see the next test).
      const r = await runLocalPipeline({
        input: CORPUS,
        cluster: 'demo',
        backfill: true,
        stdout: out.stream,
        stderr: err.stream,
      });
      expect(process.env).toEqual(before);
      expect(r.ingestFailures).toBe(0);
      expect(r.deadLettered).toBe(0);
      const events = r.sns
        .map((m) => `${m.attributes.event}:${(m.body as LoopAlertMessage).finding.kafkaCluster}`)
        .sort();
      expect(events).toEqual([
        'loop-ended:events-kafka',
        'loop-ended:pipeline-kafka',
        'loop-started:events-kafka',
        'loop-started:pipeline-kafka',
      ]);
      expect(r.sns.every((m) => m.attributes.cluster === 'demo' && m.subject.startsWith('[demo] '))).toBe(
        true,
      );
      // Every SNS message reached Slack, as Block Kit.
      expect(r.slack).toHaveLength(r.sns.length);
      expect((r.slack as SlackPayload[]).every((p) => p.blocks[0]?.type === 'header')).toBe(true);
      expect(out.text()).toMatch(
        /^4 alert\(s\) published: 2 loop-started, 2 loop-ended; 4 Slack post\(s\), 4 chat/,
      );
      expect(r.chat).toHaveLength(4);
      expect(out.text()).toContain('━━ Alert 1 of 4: [demo] loop started');
      expect(out.text().match(/^── Slack$/gm)).toHaveLength(4);
      // Every link points into the stopped emulator: left out, and no lifetime said for it.
      expect(out.text()).toContain('(link left out: it pointed into the emulator, which has stopped)');
      expect(out.text()).not.toContain('valid until');
      expect(out.text()).not.toContain(' loop(s) ended before this first analysis');
      expect(err.text()).toMatch(/ingest: \d+ invocations, 0 message failures, 0 dead-lettered/);
      // The corpus's recreations, loops included, also went to the Athena history.
      expect(err.text()).toMatch(
        /findings history \(Athena\): [1-9]\d* rows under s3:\/\/koperator-audit-local\/findings\//,
      );
    });
  });

  describeWithCorpus(CORPUS, 'on the shared scenario corpus, as the first analysis', () => {
    it('alerts none of the loops that ended before it: they are in the report', async () => {
      const out = sink();
      const r = await runLocalPipeline({
        input: CORPUS,
        cluster: 'demo',
        stdout: out.stream,
        stderr: sink().stream,
      });
      const loopEvents = r.sns.filter((m) => m.attributes.event?.startsWith('loop-'));
      expect(loopEvents).toEqual([]);
      const clusters = (r.analyze as { clusters: { loops: number; activeLoops: number }[] }).clusters;
      expect(clusters[0]!.loops).toBe(2);
      expect(out.text()).toContain(
        '2 loop(s) ended before this first analysis: they are in the report, not alerted',
      );
    });
  });

  describeWithCorpus(DRIFT, 'on the drift corpus (a real kube-apiserver), as the first analysis', () => {
    it('alerts the tamper drifts that still stand and says how many were already over', async () => {
      const truth = (
        JSON.parse(readFileSync(path.join(DRIFT, 'expected.json'), 'utf8')) as {
          drifts: { severity: string; ended: unknown }[];
        }
      ).drifts.filter((d) => d.severity === 'tamper');
      const over = truth.filter((d) => d.ended !== null).length;
      const standing = truth.length - over;
      expect(over).toBeGreaterThan(0);
      const first = sink();
      const r = await runLocalPipeline({
        input: DRIFT,
        cluster: 'drift',
        stdout: first.stream,
        stderr: sink().stream,
      });
      expect(r.sns.filter((m) => m.attributes.event === 'drift-detected')).toHaveLength(standing);
      expect(first.text()).toContain(
        `${over} drift(s) were already over (reverted, or the pod deleted) before this first analysis`,
      );
      const again = sink();
      const b = await runLocalPipeline({
        input: DRIFT,
        cluster: 'drift',
        backfill: true,
        stdout: again.stream,
        stderr: sink().stream,
      });
      expect(b.sns.filter((m) => m.attributes.event === 'drift-detected')).toHaveLength(truth.length);
      expect(again.text()).not.toContain('drift(s) were already over');
    });
  });

  it('runs every stage on a folder without broker pods, and prints JSON on request', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'local-pipeline-'));
    try {
      writeFileSync(path.join(dir, 'notes.txt'), 'not a log\n');
      writeFileSync(
        path.join(dir, 'manager.log'),
        JSON.stringify({
          level: 'info',
          ts: '2026-11-02T10:00:00.000Z',
          msg: 'Reconciling KafkaCluster',
          KafkaCluster: { name: 'orders', namespace: 'kafka' },
        }) + '\n',
      );
      const out = sink();
      const r = await runLocalPipeline({
        input: dir,
        format: 'json',
        now: '2026-11-02T10:05:00Z',
        lookback: '1h',
        stdout: out.stream,
        stderr: sink().stream,
      });
      expect(r).toMatchObject({ uploaded: 2, ingestFailures: 0, sns: [], slack: [], chat: [] });
      expect(JSON.parse(out.text())).toMatchObject({
        sns: [],
        slack: [],
        chat: [],
        analyze: { now: '2026-11-02T10:05:00.000Z' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
