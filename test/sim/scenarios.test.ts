// The simulator's ground truth must agree with the logs it writes: every recreation it claims is
// visible in the audit events and operator lines, in the contract's terms.
import { applyOperation, type Operation } from 'fast-json-patch';
import { isDeepStrictEqual } from 'util';
import { decodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import type { Recreation } from '../../lib/model/findings';
import {
  DEFAULT_OPERATOR_USER,
  getPath,
  pointerToPath,
  simulateCluster,
  type SimulatedLogs,
} from '../../sim';
import { threeWayDelta, twoWayDiff } from '../../sim/diff';
import type { JsonObject } from '../../sim/json';
import { quantitiesEqual } from '../../sim/quantity';
import { parseTime, SEC } from '../../sim/time';
import { AuditIndex, isJson, meta, type Json } from './audit-index';

const START = '2026-09-14T06:30:00Z';

/** Equal as JSON values (key order aside), quantities by value. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && quantitiesEqual(a, b)) return true;
  return isDeepStrictEqual(a, b);
}

function withoutAnnotation(obj: unknown): JsonObject {
  const copy = JSON.parse(JSON.stringify(obj)) as JsonObject;
  const m = copy.metadata;
  if (isJson(m) && isJson(m.annotations)) delete m.annotations[LAST_APPLIED_ANNOTATION];
  return copy;
}

function webhookPatches(
  annotations: Record<string, string> | undefined,
): Array<{ index: number; by: string; patch: Operation[] }> {
  return Object.entries(annotations ?? {})
    .filter(([k]) => k.startsWith('patch.webhook.admission.k8s.io/'))
    .map(([k, v]) => {
      const p = JSON.parse(v) as { configuration: string; webhook: string; patch: Operation[] };
      return {
        index: Number(/index_(\d+)$/.exec(k)?.[1] ?? 0),
        by: `${p.configuration}/${p.webhook}`,
        patch: p.patch,
      };
    })
    .sort((a, b) => a.index - b.index);
}

describe.each(['RequestResponse', 'Metadata'] as const)('simulateCluster, pods logged at %s', (level) => {
  let sim: SimulatedLogs;
  let idx: AuditIndex;
  const bodies = level === 'RequestResponse';

  beforeAll(() => {
    sim = simulateCluster({ seed: 42, start: START, auditLevel: level, noiseRatio: 0.5 });
    idx = new AuditIndex(sim.audit);
  });

  test('events are sorted (audit by stageTimestamp, operator lines by ts) and start at the given time', () => {
    const stage = sim.audit.map((e) => parseTime(e.stageTimestamp));
    expect(stage.every((t, i) => i === 0 || stage[i - 1] <= t)).toBe(true);
    const ts = sim.operator.map((l) => parseTime(l.ts));
    expect(ts.every((t, i) => i === 0 || ts[i - 1] <= t)).toBe(true);
    expect(stage[0]).toBeGreaterThanOrEqual(parseTime(START));
  });

  test('each request has one RequestReceived stage (no bodies, no annotations) and one ResponseComplete', () => {
    for (const [id, events] of idx.byID) {
      const received = events.filter((e) => e.stage === 'RequestReceived');
      const complete = events.filter((e) => e.stage === 'ResponseComplete');
      expect({ id, received: received.length }).toEqual({ id, received: 1 });
      expect(complete.length).toBeLessThanOrEqual(1);
      expect(received[0].requestObject).toBeUndefined();
      expect(received[0].responseObject).toBeUndefined();
      expect(received[0].annotations).toBeUndefined();
      for (const e of events) expect(e.requestReceivedTimestamp).toBe(received[0].requestReceivedTimestamp);
    }
  });

  test('each recreation starts with a delete or eviction of that pod by deletedBy at deletedAt', () => {
    expect(sim.truth.recreations.length).toBeGreaterThan(20);
    for (const r of sim.truth.recreations) {
      const start = idx.complete.find(
        (e) =>
          e.objectRef?.name === r.deletedPod.name &&
          e.objectRef.namespace === r.namespace &&
          e.requestReceivedTimestamp === r.deletedPod.deletedAt &&
          (e.verb === 'delete' || (e.verb === 'create' && e.objectRef.subresource === 'eviction')),
      );
      expect(start?.user.username).toBe(r.deletedPod.deletedBy);
      expect(start?.responseStatus?.code).toBeLessThan(300);
      // The kubelet finishes it: a final delete with grace 0 and the pod's uid as precondition.
      const final = idx
        .podWrites(r.namespace, r.deletedPod.name)
        .find((e) => e.verb === 'delete' && (e.user.username ?? '').startsWith('system:node:'));
      expect(final).toBeDefined();
      if (final?.level !== 'Metadata' && r.deletedPod.uid)
        expect(final?.requestObject).toMatchObject({
          gracePeriodSeconds: 0,
          preconditions: { uid: r.deletedPod.uid },
        });
    }
  });

  test('a uid in the truth is the pod’s own, as the logs show it; a null uid appears nowhere', () => {
    const text = JSON.stringify(sim.audit) + JSON.stringify(sim.operator);
    for (const r of sim.truth.recreations) {
      const writes = idx.podWrites(r.namespace, r.deletedPod.name);
      const binding = writes.find((e) => e.objectRef?.subresource === 'binding');
      if (r.deletedPod.uid === null) {
        expect(binding).toBeUndefined();
        continue;
      }
      expect(text.includes(r.deletedPod.uid)).toBe(true);
      const shown = writes.some(
        (e) => e.objectRef?.uid === r.deletedPod.uid || meta(e.responseObject).uid === r.deletedPod.uid,
      );
      const inDiff = sim.operator.some(
        (l) =>
          l.msg === 'kafka pod resource diffs' && String(l.fields.current).includes(r.deletedPod.uid ?? '-'),
      );
      expect(shown || inDiff).toBe(true);
    }
  });

  test('each successor is the operator’s create at createdAt, named by its stored object or binding', () => {
    for (const r of sim.truth.recreations.filter((x) => x.createdPod !== null)) {
      const created = r.createdPod!;
      const create = idx.createOf(r.namespace, created.name);
      expect(create?.requestReceivedTimestamp).toBe(created.createdAt);
      expect(create?.user.username).toBe(DEFAULT_OPERATOR_USER);
      const binding = idx
        .podWrites(r.namespace, created.name)
        .find((e) => e.objectRef?.subresource === 'binding');
      expect(binding?.objectRef?.uid).toBe(created.uid);
      expect(parseTime(created.createdAt) - parseTime(r.deletedPod.deletedAt)).toBeGreaterThan(SEC);
      expect(parseTime(created.createdAt) - parseTime(r.deletedPod.deletedAt)).toBeLessThan(9 * SEC);
      expect(created.name.startsWith(`${r.kafkaCluster}-${r.brokerId}-`)).toBe(true);
      expect(created.name).toMatch(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    }
  });

  test('evidence names audit events that exist', () => {
    for (const r of sim.truth.recreations) {
      expect(r.evidence.length).toBeGreaterThan(0);
      for (const id of r.evidence) expect(idx.final(id)).toBeDefined();
    }
  });

  test('every operator deletion is logged as "broker pod deleted" after the delete, before the successor', () => {
    for (const r of sim.truth.recreations.filter((x) => x.deletedPod.deletedBy === DEFAULT_OPERATOR_USER)) {
      const line = sim.operator.find(
        (l) => l.msg === 'broker pod deleted' && l.fields.pod === r.deletedPod.name,
      );
      expect(line?.fields.brokerId).toBe(r.brokerId);
      expect(parseTime(line!.ts)).toBeGreaterThanOrEqual(
        Math.floor(parseTime(r.deletedPod.deletedAt) / 1000) * 1000,
      );
      if (r.createdPod) expect(parseTime(line!.ts)).toBeLessThan(parseTime(r.createdPod.createdAt));
      expect(line?.fields.KafkaCluster).toEqual({ name: r.kafkaCluster, namespace: r.namespace });
    }
  });

  test('a revert names fields a webhook patch or a later write of that pod really changed', () => {
    const reverts = sim.truth.recreations.filter((r) => r.classification === 'external-mutation-revert');
    expect(reverts.length).toBeGreaterThan(10);
    for (const r of reverts) {
      expect(r.fields.length).toBeGreaterThan(0);
      const create = idx.createOf(r.namespace, r.deletedPod.name);
      for (const f of r.fields) {
        expect(f.by).not.toBeNull();
        expect(sameValue(f.from, f.to)).toBe(false);
        if (!bodies || r.namespace !== 'kafka') continue;
        const hook = webhookPatches(create?.annotations).find((p) => p.by === f.by);
        if (hook) {
          // Applied to the requestObject, the webhook's own patch sets the field to the live value.
          let doc = JSON.parse(JSON.stringify(create?.requestObject)) as Json;
          for (const op of hook.patch) {
            try {
              doc = applyOperation(doc, op, false, true).newDocument;
            } catch {
              // A pointer into something the built-in plugins added (not in the requestObject).
            }
          }
          expect(sameValue(getPath(doc, f.path), f.to)).toBe(true);
          expect(sameValue(getPath(create?.requestObject, f.path), f.from)).toBe(true);
          expect(getPath(create?.responseObject, f.path)).toEqual(f.to);
          continue;
        }
        // Otherwise a later write by `by` (a resize, a patch) touched the field.
        const write = idx
          .podWrites(r.namespace, r.deletedPod.name)
          .find((e) => e.user.username === f.by && e.verb === 'patch');
        expect(write).toBeDefined();
        const ops = write?.requestObject as Operation[];
        const paths = ops.map((op) =>
          pointerToPath(write?.responseObject, op.path, 'value' in op ? (op.value as string) : undefined),
        );
        expect(paths).toContain(f.path);
        expect(getPath(write?.responseObject, f.path)).toEqual(f.to);
      }
    }
  });

  test('last-applied annotations decode to the declared pod each create carries', () => {
    if (!bodies) return;
    const creates = idx.complete.filter(
      (e) =>
        e.verb === 'create' &&
        e.objectRef?.resource === 'pods' &&
        !e.objectRef.subresource &&
        e.user.username === DEFAULT_OPERATOR_USER &&
        e.requestObject,
    );
    expect(creates.length).toBeGreaterThan(20);
    for (const e of creates) {
      const annotation = (meta(e.requestObject).annotations as Record<string, string>)[
        LAST_APPLIED_ANNOTATION
      ];
      expect((meta(e.responseObject).annotations as Record<string, string>)[LAST_APPLIED_ANNOTATION]).toBe(
        annotation,
      );
      const decoded = decodeLastApplied(annotation);
      if (!decoded.ok) throw new Error(decoded.reason);
      expect(decoded.encoding).toBe('zip');
      expect(JSON.stringify(decoded.value)).not.toContain(LAST_APPLIED_ANNOTATION);
      expect(JSON.stringify(decoded.value)).not.toMatch(/:null|:""/);
      // Everything declared is in the request as sent (which only adds API defaults).
      expect(threeWayDelta(decoded.value as JsonObject, withoutAnnotation(e.requestObject))).toEqual([]);
      expect(meta(decoded.value).generateName).toBe(meta(e.requestObject).generateName);
    }
  });

  test('an intent change is the difference between old and new last-applied, by the last spec writer', () => {
    const intents = sim.truth.recreations.filter((r) => r.classification === 'intent-change');
    expect(intents.length).toBeGreaterThanOrEqual(4);
    for (const r of intents) {
      if (r.createdPod === null) {
        expect(r.fields).toEqual([]);
        expect(
          sim.operator.some(
            (l) =>
              l.msg === 'broker pod deleted' &&
              l.fields.pod === r.deletedPod.name &&
              Object.keys(l.fields).indexOf('brokerId') < Object.keys(l.fields).indexOf('pod'),
          ),
        ).toBe(true);
        continue;
      }
      const specWrites = idx.complete.filter(
        (e) =>
          e.objectRef?.resource === 'kafkaclusters' &&
          e.objectRef.name === r.kafkaCluster &&
          !e.objectRef.subresource &&
          e.verb !== 'get' &&
          e.requestReceivedTimestamp < r.deletedPod.deletedAt,
      );
      const author = specWrites[specWrites.length - 1].user.username;
      for (const f of r.fields) expect(f.by).toBe(author);
      expect(author).toBe('carol@example.com');
      if (!bodies) continue;
      const oldLA = (
        meta(idx.podWrites(r.namespace, r.deletedPod.name).find((e) => e.verb === 'delete')?.responseObject)
          .annotations as Record<string, string>
      )[LAST_APPLIED_ANNOTATION];
      const newLA = (
        meta(idx.createOf(r.namespace, r.createdPod.name)?.requestObject).annotations as Record<
          string,
          string
        >
      )[LAST_APPLIED_ANNOTATION];
      const a = decodeLastApplied(oldLA);
      const b = decodeLastApplied(newLA);
      if (!a.ok || !b.ok) throw new Error('undecodable last-applied');
      const diff = twoWayDiff(a.value as JsonObject, b.value as JsonObject);
      expect(diff.map((d) => d.path).sort()).toEqual(r.fields.map((f) => f.path).sort());
      for (const f of r.fields) {
        expect(getPath(a.value, f.path)).toEqual(f.from);
        expect(getPath(b.value, f.path)).toEqual(f.to);
      }
    }
  });

  test('verbose diff lines come before their deletion and carry the declared and live values', () => {
    const diffs = sim.operator.filter((l) => l.msg === 'kafka pod resource diffs');
    expect(diffs.length).toBeGreaterThan(0);
    const diffDriven = sim.truth.recreations.filter(
      (x) =>
        x.classification === 'external-mutation-revert' ||
        (x.classification === 'intent-change' && x.createdPod !== null),
    );
    for (const r of diffDriven) {
      const deletedAt = parseTime(r.deletedPod.deletedAt);
      const line = diffs.find((l) => {
        const current = JSON.parse(String(l.fields.current)) as Json;
        return meta(current).name === r.deletedPod.name;
      });
      if (!line) {
        // Without a diff line the truth relies on bodies, which this namespace must log.
        expect(bodies && r.namespace === 'kafka').toBe(true);
        continue;
      }
      expect(line.level).toBe('debug');
      expect(parseTime(line.ts)).toBeLessThan(deletedAt);
      const current = JSON.parse(String(line.fields.current)) as Json;
      const modified = JSON.parse(String(line.fields.modified)) as Json;
      const original = JSON.parse(String(line.fields.original)) as Json;
      expect(isJson(JSON.parse(String(line.fields.patch)))).toBe(true);
      for (const f of r.fields) {
        if (r.classification === 'external-mutation-revert') {
          expect(getPath(modified, f.path)).toEqual(f.from);
          expect(getPath(current, f.path)).toEqual(f.to);
        } else {
          expect(getPath(original, f.path)).toEqual(f.from);
          expect(getPath(modified, f.path)).toEqual(f.to);
        }
      }
    }
  });

  test('the causes of the other classes are in the logs', () => {
    const byClass = (c: Recreation['classification']): Recreation[] =>
      sim.truth.recreations.filter((r) => r.classification === c);
    for (const r of byClass('tainted-restart')) {
      const line = sim.operator.find(
        (l) =>
          l.msg === 'pod has tainted labels, attempting to delete' &&
          isJson(l.fields.pod) &&
          l.fields.pod.name === r.deletedPod.name,
      );
      expect(line).toBeDefined();
      const label = idx
        .podWrites(r.namespace, r.deletedPod.name)
        .find((e) => e.verb === 'patch' && !e.objectRef?.subresource);
      expect(label?.user.username).not.toBe(DEFAULT_OPERATOR_USER);
      if (bodies)
        expect(label?.requestObject).toEqual({
          metadata: { labels: { 'maintenance.example.com/retiring': 'true' } },
        });
    }
    for (const r of byClass('container-terminated')) {
      const line = sim.operator.find(
        (l) => l.msg === 'terminated container for broker pod' && l.fields.pod === r.deletedPod.name,
      );
      expect(line?.fields).toMatchObject({
        brokerId: r.brokerId,
        containerName: 'kafka',
        exitCode: 137,
        reason: 'OOMKilled',
      });
      const report = idx
        .podWrites(r.namespace, r.deletedPod.name)
        .find(
          (e) =>
            e.objectRef?.subresource === 'status' &&
            JSON.stringify(e.requestObject ?? '').includes('OOMKilled'),
        );
      if (bodies) expect(report && report.requestReceivedTimestamp < r.deletedPod.deletedAt).toBe(true);
    }
    for (const r of byClass('config-change')) {
      const cm = idx.complete.find(
        (e) =>
          e.objectRef?.resource === 'configmaps' &&
          e.verb === 'update' &&
          e.objectRef.name === `${r.kafkaCluster}-config-${r.brokerId}`,
      );
      expect(cm?.user.username).toBe(DEFAULT_OPERATOR_USER);
      expect(cm!.requestReceivedTimestamp < r.deletedPod.deletedAt).toBe(true);
      expect(cm?.level).toBe('Metadata');
    }
    for (const r of byClass('external-deletion')) {
      expect(r.deletedPod.deletedBy).not.toBe(DEFAULT_OPERATOR_USER);
      expect(r.createdPod).not.toBeNull();
    }
    const evictions = idx.complete.filter(
      (e) => e.objectRef?.subresource === 'eviction' && e.user.username === 'priya@example.com',
    );
    expect(evictions.map((e) => e.responseStatus?.code)).toEqual([429, 201]);
    expect(idx.complete.some((e) => e.verb === 'delete' && e.user.username === 'priya@example.com')).toBe(
      false,
    );
  });

  test('loops are runs of at least three operator recreations of one broker, gaps at most ten minutes', () => {
    expect(sim.truth.loops.map((l) => `${l.kafkaCluster}/${l.brokerId}`).sort()).toEqual([
      'clickstream-kafka/5',
      'metrics-kafka/1',
      'search-kafka/2',
    ]);
    for (const loop of sim.truth.loops) {
      const members = sim.truth.recreations.filter(
        (r) =>
          r.kafkaCluster === loop.kafkaCluster &&
          r.brokerId === loop.brokerId &&
          r.deletedPod.deletedAt >= loop.firstAt &&
          r.deletedPod.deletedAt <= loop.lastAt,
      );
      expect(members.length).toBe(loop.count);
      expect(members.every((r) => r.deletedPod.deletedBy === DEFAULT_OPERATOR_USER)).toBe(true);
      const times = members.map((r) => parseTime(r.deletedPod.deletedAt));
      const gaps = times.slice(1).map((t, i) => (t - times[i]) / SEC);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(600);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(7.5);
      expect(loop.periodSeconds).toBeGreaterThanOrEqual(8);
      expect(loop.periodSeconds).toBeLessThanOrEqual(12);
      expect(loop.classification).toBe('external-mutation-revert');
      expect(loop.mutators.length).toBe(1);
      expect(loop.recommendation).toBe('');
      // The recreation just before the loop (if any) is not the operator's: it started the loop.
      const before = sim.truth.recreations.filter(
        (r) =>
          r.kafkaCluster === loop.kafkaCluster &&
          r.brokerId === loop.brokerId &&
          r.deletedPod.deletedAt < loop.firstAt,
      );
      if (before.length > 0)
        expect(before[before.length - 1].deletedPod.deletedBy).not.toBe(DEFAULT_OPERATOR_USER);
    }
    // The default timeline ends with the rightsizer loop still running.
    expect(sim.truth.loops.filter((l) => l.active).map((l) => l.kafkaCluster)).toEqual(['clickstream-kafka']);
  });
});
