// The shared corpora, read where they live (../shared next to the repository), never
// copied in. When they are absent (a clone on its own), the corpus checks are reported as
// skipped; the one test that always runs only checks where the corpora are looked for.
//
// Expected counts were established independently of this code (Python's json.raw_decode
// over the decompressed bytes) when the corpora were checked in; see each README.
import * as fs from 'fs';
import * as path from 'path';
import { gkeEntryToAuditObject } from '../../lib/ingest/formats/gke';
import { toAuditEvent } from '../../lib/ingest/formats/audit-event';
import { isRelevantAuditEvent } from '../../lib/ingest/filter';
import type { JsonObject } from '../../lib/ingest/formats/json';
import type { LogRecord } from '../../lib/model/record';
import { listLocal } from '../../lib/sources/local';
import { DEFAULT_SHARED_CORPUS, describeWithCorpus, SHARED_CORPUS as CORPUS } from '../support/shared-corpus';
import { auditOf, readAll } from './fixtures';

function keyOf(r: LogRecord): string {
  return r.kind === 'audit' ? `${r.event.auditID}:${r.event.stage}` : `${r.line.ts}:${r.line.msg}`;
}

function foreignFiles(dir: string, details: { source: string; reason: string }[]): string[] {
  return details.filter((d) => d.reason === 'foreign-file').map((d) => path.relative(dir, d.source));
}

describe('shared corpora', () => {
  it('are looked for in ../shared/corpus next to the repository', () => {
    const repo = path.resolve(__dirname, '..', '..');
    expect(DEFAULT_SHARED_CORPUS).toBe(path.join(path.dirname(repo), 'shared', 'corpus'));
  });

  describeWithCorpus(path.join(CORPUS, 'external'), 'external (real files from public projects)', () => {
    const dir = path.join(CORPUS, 'external');
    let all: Awaited<ReturnType<typeof readAll>>;
    beforeAll(async () => {
      all = await readAll(listLocal(dir), { relevantOnly: false });
    });

    it('reads every event of every file', () => {
      // 50 Falco traces (one is the stub), 37 + 757 audit2rbac events, 21 AKS records, 4 KHI entries.
      expect(all.stats.audit.read).toBe(870);
      expect(all.stats.records).toEqual({ 'audit-jsonl': 846, 'aks-diagnostic': 21, 'gke-logentry': 3 });
      expect(all.stats.files.errors).toBe(0);
      expect(all.stats.skipped['missing-timestamp']).toBeUndefined();
    });

    it('counts Falco\'s {"kind": 0} stub as foreign, with the two Markdown files', () => {
      expect(foreignFiles(dir, all.stats.details).sort()).toEqual([
        'README.md',
        'SOURCES.md',
        'falco/test__trace_files__k8s_audit__fal_01_003.json',
      ]);
      expect(all.stats.skipped['foreign-record']).toBe(1);
    });

    it('gives v1beta1 events without the later timestamps their `timestamp`', () => {
      // audit2rbac's logs (2017) carry only `timestamp`.
      const old = auditOf(all.records.filter((r) => r.at.source.includes('audit2rbac')));
      expect(old.length).toBeGreaterThan(400);
      for (const e of old) {
        const legacy = (e as unknown as { timestamp: string }).timestamp;
        expect([e.requestReceivedTimestamp, e.stageTimestamp]).toEqual([legacy, legacy]);
      }
    });

    it('unescapes AKS `\\/` strings', () => {
      const aks = all.records.filter((r) => r.format === 'aks-diagnostic');
      expect(aks).toHaveLength(21);
      for (const e of auditOf(aks)) expect(e.requestURI?.startsWith('/')).toBe(true);
    });

    it('maps a real GKE pod create (KHI) field by field', () => {
      const line = fs.readFileSync(path.join(dir, 'khi', 'gke-logentries.jsonl'), 'utf8').split('\n')[0];
      const ev = toAuditEvent(gkeEntryToAuditObject(JSON.parse(line) as JsonObject));
      if (typeof ev === 'string') throw new Error(ev);
      expect(ev).toMatchObject({
        auditID: '85371f7c-2383-4041-96e8-dad63d2d1990',
        stage: 'ResponseComplete',
        verb: 'create',
        level: 'RequestResponse',
        user: { username: 'system:serviceaccount:kube-system:replicaset-controller' },
        sourceIPs: ['172.16.0.3'],
        objectRef: {
          resource: 'pods',
          namespace: '1-2-deployment-update',
          name: 'nginx-deployment-surge-8655b4b8c5-xf5f4',
          apiGroup: '',
          apiVersion: 'v1',
        },
        responseStatus: { code: 200 },
        requestReceivedTimestamp: '2024-01-01T01:00:00Z',
      });
      expect(ev.annotations?.['mutation.webhook.admission.k8s.io/round_0_index_3']).toContain('pod-ready');
      expect(ev.requestObject).toMatchObject({
        kind: 'Pod',
        metadata: { generateName: 'nginx-deployment-surge-8655b4b8c5-' },
      });
      expect(ev.requestObject).not.toHaveProperty('@type');
    });
  });

  describeWithCorpus(
    path.join(CORPUS, 'scenarios'),
    'scenarios (every format, damaged and foreign files included)',
    () => {
      const dir = path.join(CORPUS, 'scenarios');
      let all: Awaited<ReturnType<typeof readAll>>;
      let relevant: Awaited<ReturnType<typeof readAll>>;
      beforeAll(async () => {
        all = await readAll(listLocal(dir), { relevantOnly: false });
        relevant = await readAll(listLocal(dir));
      });

      it('reads all 4718 event copies and emits the 3528 distinct requests', () => {
        expect(all.stats.audit.read).toBe(4718);
        const audit = auditOf(all.records);
        expect(new Set(audit.map((e) => e.auditID)).size).toBe(3528);
        expect(audit).toHaveLength(3528);
        // Three requests lost their ResponseComplete to damage: their RequestReceived stands in.
        expect(audit.filter((e) => e.stage === 'RequestReceived')).toHaveLength(3);
        expect(all.stats.dedupe.requestReceivedEmitted).toBe(3);
        expect(all.stats.operator.read).toBe(374);
        expect(all.stats.controlMessages).toBe(1);
      });

      it('names the container of every record', () => {
        expect(all.stats.records).toEqual({
          'audit-jsonl': 2189,
          'audit-eventlist': 568,
          'eks-cloudwatch-export': 1331,
          'eks-firehose-cwl': 630,
          'zap-json': 263,
          'fluent-bit-operator': 111,
        });
      });

      it('counts the truncated gzip once, the damaged lines by line, and the foreign files', () => {
        const { stats } = all;
        expect(stats.files).toEqual({ read: 21, empty: 0, foreign: 4, errors: 1 });
        expect(foreignFiles(dir, stats.details).sort()).toEqual([
          'README.md',
          'audit/exportedlogs/aws-logs-write-test',
          'expected.json',
          'operator/README.txt',
        ]);
        const errors = stats.details.filter((d) => d.reason === 'gzip-truncated');
        expect(errors.map((d) => path.basename(d.source))).toEqual([
          'audit-stream-1-2026-11-02-11-16-18-c7f7e581-909f-487b-86a5-3680a088e524.gz',
        ]);
        const damaged = stats.details
          .filter((d) => d.source.endsWith('kube-apiserver/audit.log'))
          .map((d) => [d.line, d.reason]);
        expect(damaged).toEqual([
          [192, 'incomplete-record'],
          [288, 'incomplete-record'],
          [384, 'not-a-log-line'],
          [577, 'incomplete-record'],
        ]);
      });

      it('the byte pre-filter keeps exactly what a full parse deems relevant', () => {
        const want = all.records
          .filter((r) => r.kind === 'operator' || isRelevantAuditEvent(r.event))
          .map(keyOf);
        expect(relevant.records.map(keyOf)).toEqual(want);
        expect(relevant.stats.audit.read).toBe(all.stats.audit.read);
        expect(relevant.stats.audit.irrelevant + relevant.stats.audit.kept).toBe(relevant.stats.audit.read);
        expect(relevant.stats.records).toEqual(all.stats.records);
      });
    },
  );
});
