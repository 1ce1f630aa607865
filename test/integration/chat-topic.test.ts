// The chat topic end to end on the emulator: the bundled examples plus one audit log over
// 11 MiB (fauxqs's own body limit; S3 takes 5 GiB in one PUT) go through the local
// pipeline; an SQS queue subscribed to the chat topic receives every alert, and each one
// must be a valid Amazon Q Developer custom notification (required keys, text type, size
// caps), with one threadId per loop across its started/escalated/ended updates, the EKS
// cluster ARN as related resource, an HTTPS report link, and a readable email text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { runLocalPipeline, type LocalPipelineResult } from '../../lib/cli/local-pipeline';
import type { AlertMessage, DriftAlertMessage, FightAlertMessage } from '../../lib/notify/message';
import type { ChatNotification } from '../../lib/notify/chat';
import { chatSchemaProblems } from '../support/chat-schema';

const EKS_ARN = 'arn:aws:eks:us-east-1:123456789012:cluster/examples-eks';
const BIG_BYTES = 12 * 1024 * 1024;

function sink(): PassThrough {
  const s = new PassThrough();
  s.resume();
  return s;
}

describe('chat topic on the emulator, with an input over 11 MiB', () => {
  let dir = '';
  let r: LocalPipelineResult;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'chat-topic-'));
    cpSync(path.join(__dirname, '..', '..', 'examples', 'logs'), path.join(dir, 'logs'), { recursive: true });
    // The same records again and again: dedupe drops the copies, the findings stay the examples'.
    const audit = readFileSync(
      path.join(__dirname, '..', '..', 'examples', 'logs', 'audit', 'kube-apiserver', 'audit.log'),
    );
    const copies = Math.ceil(BIG_BYTES / audit.length);
    writeFileSync(path.join(dir, 'logs', 'audit', 'big-audit.log'), Buffer.concat(Array(copies).fill(audit)));
    process.env.EKS_CLUSTER_ARNS = `examples=${EKS_ARN}`;
    // A backfill into a watched cluster, so the loops already over are announced too (started
    // and ended, one thread each); a first analysis would leave them to the report.
    r = await runLocalPipeline({
      input: dir,
      cluster: 'examples',
      backfill: true,
      stdout: sink(),
      stderr: sink(),
    });
  }, 240_000);

  afterAll(() => {
    process.env = saved;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ingests every object, the big one included', () => {
    expect(r.ingestFailures).toBe(0);
    expect(r.deadLettered).toBe(0);
  });

  it('sends one chat message per alert, each a valid custom notification', () => {
    expect(r.sns.length).toBeGreaterThanOrEqual(3);
    expect(r.chat).toHaveLength(r.sns.length);
    const problems = r.chat.flatMap((c, i) =>
      chatSchemaProblems(JSON.stringify(c.notification)).map((p) => `chat ${i + 1}: ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('titles name the broker and the cause; descriptions the fields and an HTTP(S) report link; nextSteps the recommendation', () => {
    // Loop and recreation alerts only: this cluster's logs hold no fight and no drift.
    type BrokerAlert = Exclude<AlertMessage, FightAlertMessage | DriftAlertMessage>;
    const byId = new Map(r.sns.map((m) => [(m.body as BrokerAlert).id, m.body as BrokerAlert]));
    for (const c of r.chat) {
      const n = c.notification as ChatNotification;
      const m = byId.get(n.id)!;
      expect(m).toBeDefined();
      expect(n.content.title).toContain(
        `${m.finding.namespace}/${m.finding.kafkaCluster} broker ${m.finding.brokerId}`,
      );
      if (m.finding.classification === 'external-mutation-revert')
        expect(n.content.title).toContain('koperator reverts an outside change');
      expect(n.content.description).toContain('*Fields (from → to, by whom)*');
      expect(n.content.description).toMatch(/\*Full report\* https?:\/\/\S+ \(link valid until /);
      const rec = m.findingType === 'loop' ? m.finding.recommendation : null;
      if (rec) expect(n.content.nextSteps[0]).toBe(rec.replace(/`/g, "'"));
      expect(n.metadata.relatedResources).toEqual([EKS_ARN]);
      expect(n.metadata.eventType).toBe(m.event);
    }
  });

  it('keeps one threadId per loop across its updates, and different loops apart', () => {
    const threads = new Map<string, Set<string>>();
    for (const c of r.chat) {
      const n = c.notification as ChatNotification;
      if (!n.metadata.eventType.startsWith('loop-')) continue;
      const broker = `${n.metadata.additionalContext.namespace}/${n.metadata.additionalContext.kafkaCluster}/${n.metadata.additionalContext.brokerId}`;
      threads.set(broker, (threads.get(broker) ?? new Set()).add(n.metadata.threadId));
    }
    expect(threads.size).toBeGreaterThanOrEqual(2);
    for (const ids of threads.values()) expect(ids.size).toBe(1);
    const all = [...threads.values()].map((s) => [...s][0]);
    expect(new Set(all).size).toBe(all.length);
    // A loop announced as started and as ended lands in one thread.
    const events = r.chat.map((c) => (c.notification as ChatNotification).metadata);
    const ended = events.find((e) => e.eventType === 'loop-ended');
    expect(ended).toBeDefined();
    expect(events.some((e) => e.eventType === 'loop-started' && e.threadId === ended!.threadId)).toBe(true);
  });

  it('gives email subscribers readable text with the same facts and the link, not JSON', () => {
    for (const c of r.chat) {
      expect(c.email).not.toMatch(/^\s*[{[]/);
      expect(c.email).toMatch(/^Recreation loop|^Broker pod re-created/);
      expect(c.email).toContain('What to do:');
      expect(c.email).toMatch(/Full report: https?:\/\/\S+\n {2}\(link valid until /);
      expect(c.email).not.toContain('s3://');
      expect(c.subject).toMatch(/^\[examples\] /);
      // Filter policies work on the chat topic as on the alerts topic.
      expect(Object.keys(c.attributes).sort()).toEqual(
        ['classification', 'cluster', 'event', 'kafkaCluster', 'namespace', 'severity'].sort(),
      );
    }
  });
});
